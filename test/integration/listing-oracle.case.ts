import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { get, post } from '../support/http';
import { scanTable } from '../support/table-scan';
import { askOracle, type OracleAnswer, type OracleFilter } from '../support/oracle';
import { startTestService } from '../support/service';
import type { EngineEndpoints } from '../support/global-setup';
import { ties, variedTitles } from '../support/titles';

const SEED_BOUNDARIES = (
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../boundaries/albums.json'), 'utf8')) as {
    boundaries: string[];
  }
).boundaries;

const TITLES = [...variedTitles(640, 42), ...ties('Greatest Hits', 2000), ...ties('Demo', 45)];

interface FilterCase {
  readonly name: string;
  readonly filter: OracleFilter;
  readonly query: string;
}

const FILTERS: FilterCase[] = [
  { name: 'no filter', filter: { kind: 'all' }, query: '' },
  { name: 'key with 2000 ties', filter: { kind: 'key', key: 'GREATEST hits' }, query: 'key=GREATEST%20hits' },
  {
    name: 'key in fullwidth',
    filter: { kind: 'key', key: 'Ｄｅｍｏ' },
    query: `key=${encodeURIComponent('Ｄｅｍｏ')}`,
  },
  {
    name: 'key with combining mark',
    filter: { kind: 'key', key: 'Ägypten' },
    query: `key=${encodeURIComponent('Ägypten')}`,
  },
  { name: 'prefix a', filter: { kind: 'prefix', prefix: 'A' }, query: 'prefix=A' },
  { name: 'prefix emoji', filter: { kind: 'prefix', prefix: '🎸' }, query: `prefix=${encodeURIComponent('🎸')}` },
  {
    name: 'prefix U+E000–U+FFFF',
    filter: { kind: 'prefix', prefix: '\uE000' },
    query: `prefix=${encodeURIComponent('\uE000')}`,
  },
  { name: 'from/to', filter: { kind: 'between', from: 'b', to: 'Love' }, query: 'from=b&to=Love' },
  {
    name: 'from U+E000 to emoji',
    filter: { kind: 'between', from: '\uE000', to: '\u{1F600}' },
    query: `from=${encodeURIComponent('\uE000')}&to=${encodeURIComponent('\u{1F600}')}`,
  },
  { name: 'from only', filter: { kind: 'between', from: 'the' }, query: 'from=the' },
  {
    name: 'to just above a separator',
    filter: { kind: 'between', to: 'a\u0001' },
    query: `to=${encodeURIComponent('a\u0001')}`,
  },
];

const STRATEGIES = ['albums', 'albums-hash', 'albums-random'] as const;

/** Page sizes per filter: page size 1 only where it stays a few hundred requests. */
function pageSizes(matches: number): number[] {
  return matches <= 120 ? [1, 7, 100, 1000] : [7, 100, 1000];
}

/**
 * The listing invariant against an independent oracle: for every strategy, page
 * size, direction and filter, the pages concatenate to exactly the matching items
 * in code point order of their normalized titles, each once, every page but the
 * last full — and descending is ascending reversed, ties included.
 */
export function defineListingOracleSuite(engine: keyof EngineEndpoints): void {
  describe(`sorted listings over ${engine} match the oracle`, () => {
    let service: Awaited<ReturnType<typeof startTestService>>;
    let app: typeof service.app;
    let oracle: OracleAnswer;

    beforeAll(async () => {
      oracle = askOracle(
        SEED_BOUNDARIES,
        21,
        TITLES,
        FILTERS.map((f) => f.filter),
      );
      service = await startTestService(engine);
      app = service.app;
      for (const collection of STRATEGIES) {
        const items = TITLES.map((title, i) => ({
          pk: `${collection}/artist ${i % 97}`,
          sk: `release#${i}`,
          title,
          i,
        }));
        for (let start = 0; start < items.length; start += 1000) {
          const answer = await post(app, `/collections/${collection}/items/batch`, {
            items: items.slice(start, start + 1000),
          });
          expect(answer.body).toEqual({ written: Math.min(1000, items.length - start), failed: [] });
        }
      }
    });

    it('routes every title as the seed does (range bisect, sha256 mod 21)', async () => {
      const distinct = [...new Set(TITLES)];
      for (const title of distinct) {
        const i = TITLES.indexOf(title);
        const range = await get(app, `/collections/albums/route?key=${encodeURIComponent(title)}`);
        const hash = await get(app, `/collections/albums-hash/route?key=${encodeURIComponent(title)}`);
        expect(range.body.normalized).toBe(oracle.normalized[i]);
        expect(range.body.shards, title).toEqual([oracle.range[i]]);
        expect(hash.body.shards, title).toEqual([oracle.hash[i]]);
      }
    });

    it('stores every item under the shard key the seed computes', async () => {
      const stored = new Map<string, string>();
      for (const item of await scanTable(inject('engines')[engine], service.table)) {
        stored.set(`${item.pk}|${item.sk}`, item.gsi1pk as string);
      }
      expect(stored.size).toBe(TITLES.length * STRATEGIES.length);
      TITLES.forEach((_, i) => {
        const key = (collection: string) => stored.get(`${collection}/artist ${i % 97}|release#${i}`);
        expect(key('albums')).toBe(`albums#${oracle.range[i]}`);
        expect(key('albums-hash')).toBe(`albums-hash#${oracle.hash[i]}`);
        expect(key('albums-random')).toMatch(/^albums-random#(1?[0-9]|20)$/);
      });
    });

    for (const collection of STRATEGIES) {
      for (const [f, filterCase] of FILTERS.entries()) {
        it(`${collection}: ${filterCase.name}`, async () => {
          const expected = oracle.filters[f]!;
          for (const limit of pageSizes(expected.length)) {
            const ascending = await pageThrough(app, collection, filterCase.query, 'asc', limit);
            expectOracleOrder(ascending, expected, oracle, `${collection} ${filterCase.name} asc limit ${limit}`);
            const descending = await pageThrough(app, collection, filterCase.query, 'desc', limit);
            expect(descending, `desc is asc reversed (limit ${limit})`).toEqual([...ascending].reverse());
          }
        });
      }
    }
  });
}

/** Follows nextCursor to the end; checks every page but the last is full. Returns item indexes. */
async function pageThrough(
  app: Parameters<typeof get>[0],
  collection: string,
  filterQuery: string,
  order: 'asc' | 'desc',
  limit: number,
): Promise<number[]> {
  const seen: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; ; page++) {
    const query = [filterQuery, `order=${order}`, `limit=${limit}`, cursor && `cursor=${encodeURIComponent(cursor)}`]
      .filter(Boolean)
      .join('&');
    const answer = await get(app, `/collections/${collection}/items?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const items = answer.body.items as { i: number }[];
    seen.push(...items.map((item) => item.i));
    cursor = answer.body.nextCursor;
    if (cursor === null) return seen;
    expect(items.length, `page ${page} is full`).toBe(limit);
    expect(page).toBeLessThan(10_000);
  }
}

function expectOracleOrder(actual: number[], expected: number[], oracle: OracleAnswer, label: string): void {
  expect(new Set(actual).size, `${label}: no duplicates`).toBe(actual.length);
  expect(
    [...actual].sort((a, b) => a - b),
    `${label}: exactly the matching items`,
  ).toEqual([...expected].sort((a, b) => a - b));
  expect(
    actual.map((i) => oracle.normalized[i]),
    `${label}: code point order of normalized titles`,
  ).toEqual(expected.map((i) => oracle.normalized[i]));
}
