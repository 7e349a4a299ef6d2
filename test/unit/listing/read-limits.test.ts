import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../../src/core/collation';
import { indexSortKey } from '../../../src/core/index-key';
import { hintedWave, MAX_QUERY_LIMIT, refillWave, type ShardProgress } from '../../../src/service/listing/read-limits';
import { ShardTails, ShardTailsByCollection } from '../../../src/service/listing/shard-tails';
import { seededRandom } from '../../../devtools/random';

const asc = (a: string, b: string) => compareKeys(a, b) < 0;
const key = (n: number) => `k${String(n).padStart(6, '0')}`;

/** 21 shards holding keys 0..count-1 spread at random; each shard's keys sorted. */
function spread(count: number, seed: number): string[][] {
  const random = seededRandom(seed);
  const shards: string[][] = Array.from({ length: 21 }, () => []);
  for (let n = 0; n < count; n++) shards[Math.floor(random() * 21)]!.push(key(n));
  return shards;
}

describe('refillWave', () => {
  it('starts every shard at its share of the page plus a margin, never a full page', () => {
    const shards: ShardProgress[] = Array.from({ length: 21 }, () => ({ keys: [], hasMore: true, waiting: true }));
    const wave = refillWave(shards, 101, asc);
    expect(wave.map((read) => read.source)).toEqual([...Array(21).keys()]);
    for (const read of wave) expect(read.limit).toBeGreaterThanOrEqual(5);
    // Share + 1½ σ: 9 of 101 each, 1.87× the page on a first page (hinted pages read less).
    expect(wave.reduce((sum, read) => sum + read.limit, 0)).toBeLessThan(2 * 101);
  });

  it('tops up, in the same wave, the shards that will run dry before the page ends', () => {
    const all = spread(2100, 3);
    // After a first wave of 6 per shard, shard 0 runs dry and is waiting.
    const progress: ShardProgress[] = all.map((keys, source) => ({
      keys: keys.slice(0, 6),
      hasMore: keys.length > 6,
      waiting: source === 0,
    }));
    const wave = refillWave(progress, 101, asc);
    expect(wave.some((read) => read.source === 0)).toBe(true);
    // The page ends at about the 101st smallest key overall; every shard whose reads
    // stop before it and that holds keys there is in the wave.
    const end = key(100);
    const short = all.flatMap((keys, source) =>
      keys.length > 6 && compareKeys(keys[5]!, end) < 0 && compareKeys(keys[6]!, end) <= 0 ? [source] : [],
    );
    for (const source of short) expect(wave.map((read) => read.source)).toContain(source);
    // ...and far from all of them: shards whose buffers reach past the end are left alone.
    expect(wave.length).toBeLessThan(21);
  });

  it('grows a shard that runs dry again after a refill geometrically', () => {
    const progress: ShardProgress[] = Array.from({ length: 21 }, (_, source) => ({
      keys: [key(source)],
      hasMore: true,
      waiting: source === 4,
      ...(source === 4 && { lastRefill: 16 }),
    }));
    const read = refillWave(progress, 101, asc).find((r) => r.source === 4);
    expect(read?.limit).toBeGreaterThanOrEqual(32);
  });

  it('asks a shard that runs dry inside a run of one value for all the page still needs', () => {
    // Shard 7 holds a popular title: its reads so far are six copies of it; the other
    // shards' heads all lie past the title, so the run may fill the rest of the page.
    const title = (n: number) => indexSortKey('greatest hits', [`album#${n}`]);
    const progress: ShardProgress[] = Array.from({ length: 21 }, (_, source) => ({
      keys: source === 7 ? [0, 1, 2, 3, 4, 5].map(title) : [indexSortKey('zz', [`album#${100 + source}`])],
      hasMore: true,
      waiting: source === 7,
      ...(source === 7 && { lastRefill: 3 }),
    }));
    const read = refillWave(progress, 101, asc).find((r) => r.source === 7);
    // 101 wanted, 6 of them read already: one read for the other 95, not 6, 12, 24, 48...
    expect(read?.limit).toBe(95);
    // A value other shards hold too (random suffixes spread it) is no run of its own...
    const shared = progress.map((shard, source) => (source === 3 ? { ...shard, keys: [title(50)] } : shard));
    expect(refillWave(shared, 101, asc).find((r) => r.source === 7)?.limit).toBeLessThan(20);
    // ...and neither are six keys of different values: the usual doubling applies.
    progress[7] = { ...progress[7]!, keys: [0, 1, 2, 3, 4, 5].map((n) => indexSortKey(`title ${n}`, [`album#${n}`])) };
    expect(refillWave(progress, 101, asc).find((r) => r.source === 7)?.limit).toBeLessThan(20);
  });

  it('asks only shards that may hold more, and never beyond the page', () => {
    const progress: ShardProgress[] = Array.from({ length: 3 }, (_, source) => ({
      keys: [key(source)],
      hasMore: source !== 1,
      waiting: source !== 1,
    }));
    const wave = refillWave(progress, 5, asc);
    expect(wave.map((read) => read.source)).toEqual([0, 2]);
    for (const read of wave) expect(read.limit).toBeLessThanOrEqual(5);
  });
});

describe('hintedWave', () => {
  // The last page read 128 items past its end: every third on shard 3, the rest spread; shard 8 ran dry.
  const random = seededRandom(7);
  const ahead = Array.from({ length: 128 }, (_, n) => (n % 3 === 0 ? 3 : Math.floor(random() * 21)));
  const more = Array.from({ length: 21 }, (_, shard) => shard !== 8);

  it('reads every shard once, even those the hint says ran dry (they may have gained items)', () => {
    for (const hint of [
      { more, ahead },
      { more, ahead: [] },
    ]) {
      const wave = hintedWave(hint, 101);
      expect(wave.map((read) => read.source)).toEqual([...Array(21).keys()]);
      for (const read of wave) {
        expect(read.limit).toBeGreaterThanOrEqual(1);
        expect(read.limit).toBeLessThanOrEqual(MAX_QUERY_LIMIT);
      }
    }
  });

  it('asks the shards dense past the cursor for what they held there, and the whole wave for about a page', () => {
    const wave = hintedWave({ more, ahead }, 101);
    const held = ahead.slice(0, 101).filter((shard) => shard === 3).length;
    const dense = wave.find((read) => read.source === 3)!;
    expect(dense.limit).toBeGreaterThanOrEqual(held);
    for (const read of wave) if (read.source !== 3) expect(read.limit).toBeLessThan(dense.limit);
    // A naive fan-out asks 21 × 101; a hint sized to the page reads a little over one page.
    expect(wave.reduce((sum, read) => sum + read.limit, 0)).toBeLessThan(2 * 101);
  });
});

describe('ShardTails', () => {
  const plan = { direction: 'asc' as const, keyRange: {} };
  const items = [key(10), key(11), key(12)].map((k) => ({ gsi1sk: k }));

  it('counts the keys a shard holds after a position inside its known tail', () => {
    const tails = new ShardTails();
    tails.record(plan, 3, items, 'gsi1sk', key(9));
    expect(tails.remainingAfter(plan, 3, key(10))).toBe(2);
    expect(tails.remainingAfter(plan, 3, key(12))).toBe(0);
    expect(tails.remainingAfter(plan, 3, key(99))).toBe(0);
  });

  it('knows nothing before the tail, of other shards, or of listings bounded on the far side', () => {
    const tails = new ShardTails();
    tails.record(plan, 3, items, 'gsi1sk', key(9));
    expect(tails.remainingAfter(plan, 3, key(9))).toBe(3);
    expect(tails.remainingAfter(plan, 3, key(8))).toBeUndefined();
    expect(tails.remainingAfter(plan, 3, undefined)).toBeUndefined();
    expect(tails.remainingAfter(plan, 4, key(11))).toBeUndefined();
    const bounded = { direction: 'asc' as const, keyRange: { upper: { key: key(50), inclusive: false } } };
    expect(tails.remainingAfter(bounded, 3, key(11))).toBeUndefined();
  });

  it('keeps descending tails apart, in descending order', () => {
    const tails = new ShardTails();
    const desc = { direction: 'desc' as const, keyRange: {} };
    tails.record(
      desc,
      3,
      [key(2), key(1), key(0)].map((k) => ({ gsi1sk: k })),
      'gsi1sk',
      undefined,
    );
    expect(tails.remainingAfter(desc, 3, key(2))).toBe(2);
    expect(tails.remainingAfter(desc, 3, undefined)).toBe(3);
    expect(tails.remainingAfter(plan, 3, key(2))).toBeUndefined();
  });
});

describe('ShardTailsByCollection', () => {
  it('keeps one ShardTails per collection, apart from every other collection', () => {
    const tailsByCollection = new ShardTailsByCollection();
    const plan = { direction: 'asc' as const, keyRange: {} };
    tailsByCollection.of('albums').record(plan, 0, [{ gsi1sk: key(1) }], 'gsi1sk', undefined);
    expect(tailsByCollection.of('albums').remainingAfter(plan, 0, undefined)).toBe(1);
    expect(tailsByCollection.of('tracks').remainingAfter(plan, 0, undefined)).toBeUndefined();
    expect(new ShardTailsByCollection().of('albums').remainingAfter(plan, 0, undefined)).toBeUndefined();
  });

  it('forgets the least recently used ShardTails past its limit, never the ones in use', () => {
    const tailsByCollection = new ShardTailsByCollection(2);
    const plan = { direction: 'asc' as const, keyRange: {} };
    for (const name of ['a', 'b'])
      tailsByCollection.of(name).record(plan, 0, [{ gsi1sk: key(1) }], 'gsi1sk', undefined);
    tailsByCollection.of('a');
    tailsByCollection.of('c');
    expect(tailsByCollection.of('a').remainingAfter(plan, 0, undefined)).toBe(1);
    expect(tailsByCollection.of('b').remainingAfter(plan, 0, undefined)).toBeUndefined();
  });
});
