import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { reshardCli } from '../../src/cli/reshard-cli';
import { get, post } from '../support/http';
import { ENGINES, startTestService } from '../support/service';
import { cliEnv } from './processes';

const ORDER = [{ field: 'year', type: 'number', direction: 'desc' }, { field: 'title' }];
const CONFIG = {
  collections: {
    'by-year': { order: ORDER, strategy: { kind: 'range', boundaries: [[], [2000]] } },
    'by-year-hash': { order: ORDER, strategy: { kind: 'hash', shards: 3 } },
  },
};
const ITEMS = Array.from({ length: 90 }, (_, i) => ({
  pk: `r${i}`,
  sk: 'album',
  title: `Title ${i % 7}`,
  year: 1985 + (i % 30) + (i % 4) / 4,
}));

/** A reshard moves a typed collection to new maps (typed boundaries, more hash shards); listings do not change. */
describe.each(ENGINES)('resharding a typed collection on %s', (engine) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let dir: string;
  let env: Record<string, string>;
  const fast = { SHARDLINE_MAP_TTL_MS: '50', REQUEST_TIMEOUT_MS: '2000' };

  const listing = async (name: string, filter = '') => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query = `limit=13${filter}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await get(service.app, `/collections/${name}/items?${query}`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      seen.push(...page.body.items.map((item: { pk: string }) => item.pk));
      cursor = page.body.nextCursor;
    } while (cursor);
    return seen;
  };
  const reshard = async (...args: string[]) => {
    let output = '';
    const write = (text: string) => {
      output += text;
    };
    const code = await reshardCli([...args, '--yes'], { stdout: write, stderr: write, env, progress: false });
    return { code, output };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-typed-reshard-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
    service = await startTestService(engine, { config: CONFIG, env: fast });
    env = cliEnv(inject('engines')[engine], service.table, join(dir, 'config.json'), fast);
    for (const name of ['by-year', 'by-year-hash']) {
      const items = ITEMS.map((item) => ({ ...item, pk: `${name}/${item.pk}` }));
      expect((await post(service.app, `/collections/${name}/items/batch`, { items })).body.written).toBe(90);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('to typed boundaries from a file, and to more hash shards, listing the same throughout', async () => {
    const before = await listing('by-year');
    const nineties = await listing('by-year', '&from=1990&to=1999.5');
    expect(nineties.length).toBeGreaterThan(0);
    const file = join(dir, 'by-year-4.json');
    writeFileSync(file, JSON.stringify({ boundaries: [[], [2010], [2000, 'title 3'], ['1990.25']] }));
    const moved = await reshard('--collection', 'by-year', '--boundaries', file);
    expect(moved.code, moved.output).toBe(0);
    const shown = await get(service.app, '/collections/by-year');
    expect(shown.body).toMatchObject({ shardCount: 4, map: { phase: 'stable', readIndex: 'GSI2' } });
    // The encoded boundaries read back as the tuples the file gave, sorted (year descending).
    expect(shown.body.boundaryValues).toEqual([[], [2010], [2000, 'title 3'], [1990.25]]);
    expect(await listing('by-year')).toEqual(before);
    expect(await listing('by-year', '&from=1990&to=1999.5')).toEqual(nineties);

    const hashed = await listing('by-year-hash', '&key=2001&from=title%202');
    expect(hashed.length).toBeGreaterThan(0);
    const grown = await reshard('--collection', 'by-year-hash', '--shards', '5');
    expect(grown.code, grown.output).toBe(0);
    expect((await get(service.app, '/collections/by-year-hash')).body.shardCount).toBe(5);
    expect(await listing('by-year-hash', '&key=2001&from=title%202')).toEqual(hashed);
  });

  it('cuts balanced typed boundaries from the live keys on whole fields, and shows them as field values', async () => {
    const before = await listing('by-year');
    const cut = await reshard('--collection', 'by-year', '--shards', '6', '--strategy', 'range');
    expect(cut.code, cut.output).toBe(0);
    const shown = (await get(service.app, '/collections/by-year')).body;
    expect(shown.shardCount).toBe(6);
    // Every cut decodes to whole (year, title) fields: none ends inside a number or a title.
    expect(shown.boundaryValues).toHaveLength(6);
    expect(shown.boundaryValues[0]).toEqual([]);
    const itemTuples = new Set(ITEMS.map((item) => JSON.stringify([item.year, item.title.toLowerCase()])));
    const itemYears = new Set(ITEMS.map((item) => item.year));
    for (const tuple of shown.boundaryValues.slice(1)) {
      if (tuple.length === 2) expect(itemTuples.has(JSON.stringify(tuple)), JSON.stringify(tuple)).toBe(true);
      else expect(tuple.length === 1 && itemYears.has(tuple[0]), JSON.stringify(tuple)).toBe(true);
    }
    expect(await listing('by-year')).toEqual(before);

    // /stats names the same starts, and each hot key by its field values beside its encoding. Its
    // figures are the new map's (they start afresh with it): rewrite some items under it first.
    const again = ITEMS.slice(0, 10).map((item) => ({ ...item, pk: `by-year/${item.pk}` }));
    expect((await post(service.app, '/collections/by-year/items/batch', { items: again })).body.written).toBe(10);
    const stats = (await get(service.app, '/collections/by-year/stats')).body;
    expect(stats.mapVersion).toBeGreaterThan(1);
    expect(stats.boundaryValues).toEqual(shown.boundaryValues);
    expect(stats.sinceStart.hotKeys.length).toBeGreaterThan(0);
    for (const hot of stats.sinceStart.hotKeys) expect(itemTuples.has(JSON.stringify(hot.values))).toBe(true);
  });

  it('refuses a boundaries file of strings for a typed collection, naming why', async () => {
    const file = join(dir, 'strings.json');
    writeFileSync(file, JSON.stringify({ boundaries: ['', 'm'] }));
    const refused = await reshard('--collection', 'by-year', '--boundaries', file);
    expect(refused.code).toBe(3);
    expect(refused.output).toMatch(/tuples/);
  });
});
