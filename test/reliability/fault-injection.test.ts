/* eslint-disable @typescript-eslint/no-explicit-any -- test assertions read arbitrary JSON */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { compareKeys } from '../../src/core/collation';
import { isShardKeyOf, valueOfIndexKey } from '../../src/core/index-key';
import { normalize } from '../../src/core/normalize';
import { startDynamoProxy, type DynamoProxy } from '../support/dynamo-proxy';
import { get, post } from '../support/http';
import { startTestService } from '../support/service';
import { faultInjector, seededRandom } from './faults';
import { scanTable, type Row } from './table';

/** Replay a failure with FAULT_SEED=<seed printed below>. */
const SEED = Number(process.env.FAULT_SEED ?? 20261122);
const ITEMS_PER_COLLECTION = 1500;
const BATCH = 100;
const COLLECTIONS = [
  { name: 'albums', prefix: 'albums' },
  { name: 'albums-random', prefix: 'albums-random' },
];
const TITLES = [
  'Greatest Hits',
  'greatest hits',
  'Leaving Home',
  'Agartha',
  'Barstow / Crazy',
  'Ça plane pour moi',
  'Cyan Rot',
  'I Live',
  'Live in Florence',
  'Notice',
  'Rituals',
  'Skylten',
  'The Human Touch',
  'Walking Away',
  'Голос',
  'ＡＢＣ fullwidth',
  '😀 emoji',
  '\uE000 private use',
  'zz',
  'Zz top',
];

type App = Awaited<ReturnType<typeof startTestService>>['app'];

describe(`fault injection over DynamoDB Local (seed ${SEED})`, () => {
  let proxy: DynamoProxy;
  let app: App;
  let table: string;
  let faulty = false;
  const injector = faultInjector(SEED, { throttle: 0.25, fail: 0.05, shortQuery: 0.2, maxDelayMs: 15 }, () => faulty);
  const random = seededRandom(SEED ^ 0x5eed);
  let rows: Row[] = [];

  beforeAll(async () => {
    proxy = await startDynamoProxy(inject('engines').dynamodbLocal, injector.decide);
    ({ app, table } = await startTestService('dynamodbLocal', { env: { DYNAMODB_ENDPOINT: proxy.endpoint } }));
    faulty = true;
  });
  afterAll(async () => proxy?.close());

  it('accounts for every batch item and lands at least 99% of them', async () => {
    const sent: { collection: string; pk: string }[] = [];
    const written = new Set<string>();
    const failed = new Map<string, string>();
    const batches: { collection: string; items: Row[] }[] = [];
    for (const { name } of COLLECTIONS) {
      for (let start = 0; start < ITEMS_PER_COLLECTION; start += BATCH) {
        const items = Array.from({ length: BATCH }, (_, i) => {
          const pk = `${name}-${start + i}`;
          const base = TITLES[Math.floor(random() * TITLES.length)];
          const title = `${base}${random() < 0.5 ? ` ${Math.floor(random() * 50)}` : ''}`;
          sent.push({ collection: name, pk });
          return { pk, sk: 'item', title, n: start + i };
        });
        batches.push({ collection: name, items });
      }
    }
    // Four batch requests in flight at a time, as a few concurrent clients would send them.
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < batches.length) {
          const { collection, items } = batches[next++]!;
          const answer = await post(app, `/collections/${collection}/items/batch`, { items });
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          const failedIndexes = new Set<number>();
          for (const { index, error } of answer.body.failed as { index: number; error: { code: string } }[]) {
            failedIndexes.add(index);
            failed.set(items[index]!.pk as string, error.code);
          }
          expect(answer.body.written + failedIndexes.size).toBe(items.length);
          items.forEach((item, index) => {
            if (!failedIndexes.has(index)) written.add(item.pk as string);
          });
        }
      }),
    );

    rows = await scanTable('dynamodbLocal', table);
    const inTable = new Set(rows.map((row) => row.pk as string));
    // Every item is reported exactly once: written or failed.
    for (const { pk } of sent) expect(written.has(pk) !== failed.has(pk), pk).toBe(true);
    // Every item reported written is in the table; nothing appears that was never sent.
    const missing = [...written].filter((pk) => !inTable.has(pk));
    expect(missing).toEqual([]);
    expect(inTable.size).toBeLessThanOrEqual(sent.length);
    const landed = sent.filter(({ pk }) => inTable.has(pk)).length / sent.length;
    console.log(
      `seed ${SEED}: ${sent.length} items, ${written.size} written, ${failed.size} failed ` +
        `(${[...new Set(failed.values())].join(', ') || 'none'}), ${(landed * 100).toFixed(2)}% landed` +
        `; faults ${JSON.stringify(injector.counts)}`,
    );
    expect(landed).toBeGreaterThanOrEqual(0.99);
    // Batches are conditional puts, one an item (BatchWriteItem takes no conditions): throttles, not partial answers.
    expect(injector.counts.throttled).toBeGreaterThan(0);
  });

  it('never returns a short, duplicated or misordered listing: complete, or 503/504', async () => {
    const { pages, errors } = await checkListings(app, rows);
    console.log(
      `seed ${SEED}: ${pages} pages complete, ${errors} pages answered 503/504 and retried` +
        `; faults ${JSON.stringify(injector.counts)}`,
    );
  });

  it('under a bad minute (60% of calls faulted, 1 s deadline) pages fail whole as 503/504, never short', async () => {
    const harsh = faultInjector(SEED + 1, {
      throttle: 0.45,
      fail: 0.15,
      shortQuery: 0.3,
      maxDelayMs: 40,
    });
    const harshProxy = await startDynamoProxy(inject('engines').dynamodbLocal, harsh.decide);
    try {
      const { app: harshApp } = await startTestService('dynamodbLocal', {
        env: { DYNAMODB_ENDPOINT: harshProxy.endpoint, TABLE_NAME: table, REQUEST_TIMEOUT_MS: '1000' },
      });
      // Two listings (ranged shards one after another; all shards merged) keep this bounded on a busy machine.
      // How many tries a page needs depends on the machine's load as much as on the faults (the deadline is
      // wall time), so the ceiling is generous: what is checked is that no try ever answers a short page.
      const { pages, errors } = await checkListings(harshApp, rows, 300, [1, 4]);
      console.log(
        `seed ${SEED} (bad minute): ${pages} pages complete, ${errors} pages answered 503/504 and retried` +
          `; faults ${JSON.stringify(harsh.counts)}`,
      );
      expect(errors).toBeGreaterThan(0);
    } finally {
      await harshProxy.close();
    }
  });
});

/**
 * Pages through several listings (orders, page sizes, filters) and compares each
 * concatenation with the table's own rows sorted by code point. A page that fails
 * must fail whole (503/504, no items); the client then retries the same cursor.
 */
async function checkListings(
  app: App,
  rows: Row[],
  maxRetries = 20,
  only?: number[],
): Promise<{ pages: number; errors: number }> {
  expect(rows.length).toBeGreaterThan(0);
  let errors = 0;
  let pages = 0;
  const cases = [
    { collection: 'albums', order: 'asc', limit: 100, filter: '' },
    { collection: 'albums', order: 'desc', limit: 333, filter: '' },
    { collection: 'albums', order: 'asc', limit: 37, filter: 'prefix=greatest' },
    {
      collection: 'albums',
      order: 'desc',
      limit: 50,
      filter: `from=${encodeURIComponent('i live')}&to=${encodeURIComponent('walking away')}`,
    },
    { collection: 'albums-random', order: 'asc', limit: 250, filter: '' },
    { collection: 'albums-random', order: 'desc', limit: 1000, filter: '' },
    { collection: 'albums-random', order: 'asc', limit: 20, filter: `key=${encodeURIComponent('Greatest Hits')}` },
  ] as const;
  for (const c of only ? cases.filter((_, i) => only.includes(i)) : cases) {
    const prefix = COLLECTIONS.find(({ name }) => name === c.collection)!.prefix;
    const expected = rows
      .filter((row) => isShardKeyOf(row.gsi1pk, prefix))
      .filter((row) => matches(valueOfIndexKey(row.gsi1sk as string), c.filter))
      .sort((a, b) => (c.order === 'asc' ? 1 : -1) * compareKeys(a.gsi1sk as string, b.gsi1sk as string))
      .map((row) => row.pk);
    const seen: unknown[] = [];
    let cursor: string | null = null;
    for (let page = 0; ; page++) {
      expect(page, 'too many pages').toBeLessThan(1000);
      const query: string =
        `limit=${c.limit}&order=${c.order}${c.filter ? `&${c.filter}` : ''}` +
        `${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      let answer = await get(app, `/collections/${c.collection}/items?${query}`);
      for (let retry = 0; answer.status !== 200 && retry < maxRetries; retry++) {
        // A failed page is an error, never a partial page; the client retries the same cursor.
        expect([503, 504], JSON.stringify(answer.body)).toContain(answer.status);
        expect(answer.body.items).toBeUndefined();
        errors++;
        answer = await get(app, `/collections/${c.collection}/items?${query}`);
      }
      expect(answer.status).toBe(200);
      pages++;
      const items = answer.body.items as Row[];
      cursor = answer.body.nextCursor;
      // A page is full unless it is the last one.
      if (cursor !== null) expect(items.length).toBe(c.limit);
      seen.push(...items.map((item) => item.pk));
      if (cursor === null) break;
    }
    expect(seen, `${c.collection} ${c.order} ${c.filter}`).toEqual(expected);
  }
  return { pages, errors };
}

function matches(value: string, filter: string): boolean {
  if (filter === '') return true;
  const params = new URLSearchParams(filter);
  const n = (raw: string | null) => (raw === null ? null : normalize(raw, 'nfkd-lower'));
  if (params.has('prefix')) return value.startsWith(n(params.get('prefix'))!);
  if (params.has('key')) return value === n(params.get('key'));
  const from = n(params.get('from'));
  const to = n(params.get('to'));
  return (from === null || compareKeys(value, from) >= 0) && (to === null || compareKeys(value, to) <= 0);
}
