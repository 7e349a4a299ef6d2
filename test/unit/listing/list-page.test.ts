import { describe, expect, it } from 'vitest';
import { firstMapOf, type RoutedCollection } from '../../../src/core/collection';
import { compareKeys } from '../../../src/core/collation';
import type { JsonObject } from '../../../src/core/item';
import type { ReadHint } from '../../../src/core/read-hint';
import { inRange } from '../../../src/core/key-range';
import { indexSortKey } from '../../../src/core/index-key';
import { strategyFromConfig, type ShardStrategy } from '../../../src/core/strategies';
import { listPage } from '../../../src/service/listing/executor';
import type { ShardSource } from '../../../src/service/listing/listing';
import { ADAPTIVE_READS, type ReadPolicy } from '../../../src/service/listing/read-policy';
import { ShardTails } from '../../../src/service/listing/shard-tails';
import type { ShardQuery } from '../../../src/store/shard-query';
import type { ShardPage } from '../../../src/store/store';
import { seededRandom } from '../../../devtools/random';

/**
 * A fake store over sorted in-memory shards: for the executor's own logic (how
 * much it reads, how it fails), never for claims about DynamoDB.
 */
function fakeStore(shards: Map<string, string[]>, fail?: (query: ShardQuery) => boolean) {
  const log: ShardQuery[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  const store: ShardSource = {
    async queryShard(query, context) {
      log.push(query);
      signals.push(context.signal);
      // Answers come back in a later turn of the event loop, as over a network, without real time passing.
      await new Promise((r) => setImmediate(r));
      if (fail?.(query)) throw new Error('shard down');
      const keys = (shards.get(query.shardKey) ?? []).filter((key) => inRange(key, query.range));
      if (query.direction === 'desc') keys.reverse();
      const page = keys.slice(0, query.limit);
      const more = keys.length > query.limit;
      return {
        items: page.map((gsi1sk): JsonObject => ({ gsi1sk })),
        itemsRead: page.length,
        ...(more && { resumeAfter: page[page.length - 1]! }),
      } satisfies ShardPage;
    },
  };
  return { store, log, signals };
}

function collection(strategy: ShardStrategy): RoutedCollection {
  return firstMapOf({
    name: 'c',
    table: 't',
    primaryKey: [{ name: 'pk', type: 'S' }],
    field: 'title',
    prefix: 'c',
    indexes: [
      { name: 'GSI1', shardKeyAttribute: 'gsi1pk', indexKeyAttribute: 'gsi1sk' },
      { name: 'GSI2', shardKeyAttribute: 'gsi2pk', indexKeyAttribute: 'gsi2sk' },
    ],
    normalization: 'none',
    initialStrategy: strategy,
  });
}

function spread(count: number, shardCount: number, seed: number) {
  const random = seededRandom(seed);
  const shards = new Map<string, string[]>();
  const all: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = indexSortKey(`v${Math.floor(random() * 1e6)}`, [`k${i}`]);
    all.push(key);
    const shard = `c#${Math.floor(random() * shardCount)}`;
    shards.set(shard, [...(shards.get(shard) ?? []), key]);
  }
  for (const keys of shards.values()) keys.sort(compareKeys);
  return { shards, all: all.sort(compareKeys) };
}

describe('listPage over 21 hash shards', () => {
  const target = collection(strategyFromConfig({ kind: 'hash', shards: 21 }));
  const tails = new ShardTails();

  it('pages through everything in order and reads far less than a full page per shard', async () => {
    const { shards, all } = spread(3000, 21, 1);
    const { store } = fakeStore(shards);
    const seen: string[] = [];
    const readPerPage: number[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await listPage(
        { store, collection: target, tails, context: {} },
        { filter: { kind: 'all' }, direction: 'asc', ...(after && { after }) },
        100,
      );
      seen.push(...page.records.map((r) => r.gsi1sk as string));
      readPerPage.push(page.stats.itemsRead / Math.max(1, page.records.length));
      if (!page.nextPosition) break;
      after = page.nextPosition;
    }
    expect(seen).toEqual(all);
    readPerPage.sort((a, b) => a - b);
    // A naive fan-out reads 21 items per item returned; the adaptive limits stay near 1.
    expect(readPerPage[Math.floor(readPerPage.length / 2)]).toBeLessThan(3);
  });

  it('pages exactly with the read hints its cursors carry, and as exactly with stale or wrong ones', async () => {
    const { shards, all } = spread(3000, 21, 4);
    const { store } = fakeStore(shards);
    const walk = async (mangle?: (hint: ReadHint) => ReadHint) => {
      const seen: string[] = [];
      let roundTrips = 0;
      let after: string | undefined;
      let hint: ReadHint | undefined;
      for (;;) {
        const given = hint && mangle?.(hint);
        const page = await listPage(
          { store, collection: target, tails, context: {} },
          { filter: { kind: 'all' }, direction: 'asc', ...(after && { after }), ...(given && { hint: given }) },
          100,
        );
        seen.push(...page.records.map((r) => r.gsi1sk as string));
        roundTrips += page.stats.roundTrips;
        if (!page.nextPosition) break;
        after = page.nextPosition;
        hint = page.nextHint;
        expect(hint?.more).toHaveLength(21);
      }
      return { seen, roundTrips };
    };
    const withHints = await walk((hint) => hint);
    const without = await walk();
    expect(withHints.seen).toEqual(all);
    expect(without.seen).toEqual(all);
    // What the last page read past its end sizes the next first wave: fewer waves over the walk.
    expect(withHints.roundTrips).toBeLessThan(without.roundTrips);
    for (const mangle of [
      (hint: ReadHint) => ({ ...hint, ahead: [] }),
      (hint: ReadHint) => ({ more: hint.more.map(() => false), ahead: hint.ahead.map(() => 0) }),
      (hint: ReadHint) => ({ ...hint, ahead: [...hint.ahead].reverse() }),
    ]) {
      expect((await walk(mangle)).seen).toEqual(all);
    }
  });

  it('fails the page when a shard fails, and aborts the queries still in flight', async () => {
    const { shards } = spread(500, 21, 2);
    const { store, signals } = fakeStore(shards, (query) => query.shardKey === 'c#5');
    await expect(
      listPage(
        { store, collection: target, tails: new ShardTails(), context: {} },
        { filter: { kind: 'all' }, direction: 'asc' },
        100,
      ),
    ).rejects.toThrow('shard down');
    expect(signals.length).toBe(21);
    expect(signals.every((signal) => signal?.aborted)).toBe(true);
  });

  it('reports as round trips the waves of queries the page waited for', async () => {
    const { shards } = spread(3000, 21, 3);
    const { store: inner } = fakeStore(shards);
    // Holds every query until the test lets the whole wave through.
    let held: (() => void)[] = [];
    let answering = 0;
    let allAnswered = () => {};
    const gated = {
      queryShard: async (query: ShardQuery, context: Parameters<ShardSource['queryShard']>[1]) => {
        // Released queries count as answering from the moment of release until their answer is back.
        await new Promise<void>((resolve) =>
          held.push(() => {
            answering++;
            resolve();
          }),
        );
        try {
          return await inner.queryShard(query, context);
        } finally {
          if (--answering === 0) allAnswered();
        }
      },
    } satisfies ShardSource;
    let done = false;
    const listing = listPage(
      { store: gated, collection: target, tails: new ShardTails(), context: {} },
      { filter: { kind: 'all' }, direction: 'asc' },
      100,
    ).finally(() => (done = true));
    let waves = 0;
    for (;;) {
      // Once every released query has answered, the listing reacts in promise callbacks only:
      // one macrotask turn later it has sent all it will send before another answer comes back.
      if (answering > 0) await new Promise<void>((resolve) => (allAnswered = resolve));
      await new Promise((r) => setImmediate(r));
      if (done) break;
      // Not done, so it must be waiting on queries it sent: a listing stuck on nothing fails here.
      expect(held.length).toBeGreaterThan(0);
      waves++;
      const wave = held;
      held = [];
      for (const release of wave) release();
    }
    const page = await listing;
    expect(waves).toBeGreaterThanOrEqual(2);
    expect(page.stats.roundTrips).toBe(waves);
  });
});

describe('listPage over range shards', () => {
  const target = collection(strategyFromConfig({ kind: 'range', boundaries: ['', 'm'] }));
  const keys = (from: string, count: number) =>
    Array.from({ length: count }, (_, n) => indexSortKey(`${from}${String(n).padStart(3, '0')}`, [`k${n}`]));
  const shards = new Map([
    ['c#0', keys('a', 50)],
    ['c#1', keys('n', 50)],
  ]);
  // Ten items before the end of shard 0: a page of 20 runs on into shard 1.
  const request = { filter: { kind: 'all' }, direction: 'asc', after: shards.get('c#0')![39]! } as const;

  it('reads as its shard tails say: the same request, the same queries, unless the tails know more', async () => {
    const { store, log } = fakeStore(shards);
    const expected = [...shards.get('c#0')!.slice(40), ...shards.get('c#1')!.slice(0, 10)];
    const tails = new ShardTails();
    const first = await listPage({ store, collection: target, tails, context: {} }, request, 20);
    const queriesOf = (from: number) => log.slice(from).map((query) => [query.shardKey, query.limit]);
    const firstQueries = queriesOf(0);
    // Fresh tails know nothing: the same request reads the same way again, whatever came before.
    const fresh = await listPage({ store, collection: target, tails: new ShardTails(), context: {} }, request, 20);
    expect(queriesOf(firstQueries.length)).toEqual(firstQueries);
    expect(fresh.stats.roundTrips).toBe(first.stats.roundTrips);
    // The tails the first page read into know where shard 0 ends: shard 1 goes out in the same wave.
    const informed = await listPage({ store, collection: target, tails, context: {} }, request, 20);
    for (const page of [first, fresh, informed]) {
      expect(page.records.map((r) => r.gsi1sk)).toEqual(expected);
      expect(page.nextPosition).toBe(expected[19]);
    }
    expect(first.stats.roundTrips).toBe(2);
    expect(informed.stats.roundTrips).toBe(1);
  });
});

describe('listPage over sparse range shards', () => {
  const letters = 'bcdefghijklmnopqrstu';
  const target = collection(strategyFromConfig({ kind: 'range', boundaries: ['', ...letters] }));
  /** Shard s (0 below b, then b … u) holds `counts[s]` keys of its letter. */
  const layout = (counts: readonly number[]) =>
    new Map(
      counts.map((count, s) => [
        `c#${s}`,
        Array.from({ length: count }, (_, n) => indexSortKey(`${s === 0 ? 'a' : letters[s - 1]}${n}`, [`k${n}`])),
      ]),
    );

  it('reads ahead 1, 4 and 16 shards past empty ones: one item over 21 shards in 3 round trips', async () => {
    const counts = Array.from({ length: 21 }, (_, s) => (s === 20 ? 1 : 0));
    const { store, log } = fakeStore(layout(counts));
    for (const direction of ['asc', 'desc'] as const) {
      const from = log.length;
      const page = await listPage(
        { store, collection: target, tails: new ShardTails(), context: {} },
        { filter: { kind: 'all' }, direction },
        2,
      );
      expect(page.records.map((r) => r.gsi1sk)).toEqual([indexSortKey('u0', ['k0'])]);
      expect(page.stats.roundTrips).toBe(3);
      // Every shard once, none asked for more than the page (and the item that tells whether more follow).
      expect(log.slice(from).map((query) => query.shardKey)).toHaveLength(21);
      expect(Math.max(...log.slice(from).map((query) => query.limit))).toBe(3);
    }
  });

  it('walks any layout of empty and short shards exactly, both ways, nearly always in ≤ 3 round trips', async () => {
    const random = seededRandom(43);
    const trips: number[] = [];
    for (let layoutNo = 0; layoutNo < 20; layoutNo++) {
      // Half the shards empty or so, the others 1 to 6 keys.
      const shards = layout(Array.from({ length: 21 }, () => (random() < 0.5 ? 0 : 1 + Math.floor(random() * 6))));
      const all = [...shards.values()].flat().sort(compareKeys);
      const { store } = fakeStore(shards);
      for (const direction of ['asc', 'desc'] as const) {
        for (const limit of [1, 4, 9]) {
          const tails = new ShardTails();
          const seen: string[] = [];
          let after: string | undefined;
          for (;;) {
            const request = { filter: { kind: 'all' }, direction, ...(after !== undefined && { after }) } as const;
            const page = await listPage({ store, collection: target, tails, context: {} }, request, limit);
            seen.push(...page.records.map((r) => r.gsi1sk as string));
            trips.push(page.stats.roundTrips);
            if (page.nextPosition === undefined) break;
            after = page.nextPosition;
          }
          expect(seen).toEqual(direction === 'asc' ? all : [...all].reverse());
        }
      }
    }
    // A fourth where a page leaves its cursor's shard (read on alone: no sign yet of sparse shards)
    // and the shards' sizes so far promise more than the next ones hold: about 1 page in 100 here.
    expect(Math.max(...trips)).toBeLessThanOrEqual(4);
    expect(trips.filter((n) => n > 3).length).toBeLessThan(trips.length / 50);
  });

  it('reads no shard ahead when a page crosses from a dense shard into the next: it alone fills the page', async () => {
    const { store, log } = fakeStore(layout(Array.from({ length: 21 }, () => 50)));
    const after = indexSortKey('b44', ['k44']);
    const page = await listPage(
      { store, collection: target, tails: new ShardTails(), context: {} },
      { filter: { kind: 'all' }, direction: 'asc', after },
      20,
    );
    expect(page.records).toHaveLength(20);
    expect(log.map((query) => query.shardKey)).toEqual(['c#1', 'c#2']);
    expect(page.stats.itemsRead).toBe(5 + 16);
  });
});

describe('listPage with a read policy', () => {
  it('returns the same pages whatever its read policy asks for: a policy sizes reads, never results', async () => {
    const target = collection(strategyFromConfig({ kind: 'hash', shards: 5 }));
    const { shards, all } = spread(300, 5, 6);
    const { store } = fakeStore(shards);
    // One item a shard, never a prefetch: as many waves as can be, and still every item in order.
    const stingy: ReadPolicy = {
      singleRead: () => 1,
      firstWave: (count) => Array.from({ length: count }, (_, source) => ({ source, limit: 1 })),
      nextWave: (progress) => progress.flatMap((shard, source) => (shard.waiting ? [{ source, limit: 1 }] : [])),
      prefetch: () => [],
      readAhead: () => 1,
    };
    for (const policy of [stingy, ADAPTIVE_READS]) {
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const request = { filter: { kind: 'all' }, direction: 'asc', ...(after && { after }) } as const;
        const inputs = { store, collection: target, tails: new ShardTails(), context: {}, policy };
        const page = await listPage(inputs, request, 40);
        seen.push(...page.records.map((r) => r.gsi1sk as string));
        if (!page.nextPosition) break;
        after = page.nextPosition;
      }
      expect(seen).toEqual(all);
    }
  });
});
