import { beforeAll, describe, expect, it } from 'vitest';
import { cutBoundaries } from '../../../src/boundaries/cut-boundaries';
import { keyCountsFromMap, type KeyCounts } from '../../../src/boundaries/key-counts';
import { heavyHittersOf } from '../../../src/boundaries/shard-loads';
import { realisticNames } from '../../../devtools/realistic-names';
import { seedShapedTitles } from '../../../devtools/titles';
import { countsOf, maxOverMean, meanLength, oracleLoads } from '../../support/boundary-oracle';

/**
 * The balance and length targets on generated data with the seed's shape
 * (Zipf-like repeats, top key 0.1 %, many scripts, t/s/a/l first), loads counted
 * by the byte-order oracle with the spread rule, not by the cut's own bookkeeping.
 */
describe('seed-shaped titles, 1 million keys', () => {
  let keys: KeyCounts<readonly string[]>;
  beforeAll(() => {
    keys = countsOf(seedShapedTitles({ keys: 1_000_000, seed: 2026 }));
  });

  it('has the seed shape: repeats, a top key near 0.1 %, t s a l leading', () => {
    expect(keys.total).toBe(1_000_000);
    expect(keys.values.length).toBeLessThan(0.85 * keys.total);
    const top = keys.counts.reduce((a, b) => Math.max(a, b), 0);
    expect(top / keys.total).toBeGreaterThan(0.0008);
    expect(top / keys.total).toBeLessThan(0.0012);
    const first = new Map<string, number>();
    keys.values.forEach((v, i) => {
      const c = String.fromCodePoint(v.codePointAt(0) ?? 0);
      first.set(c, (first.get(c) ?? 0) + keys.counts[i]!);
    });
    const leading = [...first]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([c]) => c);
    expect(new Set(leading)).toEqual(new Set(['t', 's', 'a', 'l']));
    expect(first.size).toBeGreaterThan(1000);
  });

  it('21 shards: largest ÷ mean ≤ 1.01, no heavy hitters, mean boundary ≤ 8 characters', () => {
    const cut = cutBoundaries(keys, { shards: 21 });
    const loads = oracleLoads(cut.boundaries, keys);
    expect(maxOverMean(loads)).toBeLessThanOrEqual(1.01);
    expect(heavyHittersOf(cut.boundaries, keys)).toEqual([]);
    expect(meanLength(cut.boundaries)).toBeLessThanOrEqual(8);
    // The seed cut at 20 characters; ours are much shorter.
    expect(Math.max(...cut.boundaries.map((b) => [...b].length))).toBeLessThan(20);
  });

  it('21 shards with tolerance 0 is as balanced as the counts allow', () => {
    const cut = cutBoundaries(keys, { shards: 21, tolerance: 0 });
    expect(maxOverMean(oracleLoads(cut.boundaries, keys))).toBeLessThanOrEqual(1.001);
  });

  it('2,000 shards: heavy hitters appear (the top key outweighs a shard) and balance stays ≤ 1.08', () => {
    const cut = cutBoundaries(keys, { shards: 2000 });
    const heavy = heavyHittersOf(cut.boundaries, keys);
    expect(heavy.length).toBeGreaterThan(0);
    for (const h of heavy) expect(h.count).toBeGreaterThan(keys.total / 2000);
    expect(maxOverMean(oracleLoads(cut.boundaries, keys))).toBeLessThanOrEqual(1.08);
    expect(meanLength(cut.boundaries)).toBeLessThanOrEqual(8);
  });
});

describe('realistic names, 100k', () => {
  let keys: KeyCounts<readonly string[]>;
  beforeAll(() => {
    keys = countsOf(realisticNames(100_000, 7));
  });

  it('2,000 shards: largest ÷ mean ≤ 1.05 and mean boundary ≤ 8 characters', () => {
    const cut = cutBoundaries(keys, { shards: 2000 });
    const loads = oracleLoads(cut.boundaries, keys);
    expect(maxOverMean(loads)).toBeLessThanOrEqual(1.05);
    expect(meanLength(cut.boundaries)).toBeLessThanOrEqual(8);
    expect(
      new Set(cut.boundaries).size + heavyHittersOf(cut.boundaries, keys).reduce((n, h) => n + h.shards.length - 1, 0),
    ).toBe(2000);
  });

  it('is deterministic, whatever order the keys were counted in', () => {
    const first = cutBoundaries(keys, { shards: 2000 }).boundaries;
    const reversed = new Map<string, number>();
    for (let i = keys.values.length - 1; i >= 0; i--) reversed.set(keys.values[i]!, keys.counts[i]!);
    expect(cutBoundaries(keyCountsFromMap(reversed), { shards: 2000 }).boundaries).toEqual(first);
  });
});

describe('single keys heavier than a shard', () => {
  it('spreads them and keeps largest ÷ mean ≤ 1.08 (spread rule)', () => {
    // The seed's shape with a top key of 0.5 % of all keys: 5 shards' worth at 1,000 shards.
    const keys = countsOf(seedShapedTitles({ keys: 300_000, seed: 99, topShare: 0.005 }));
    const cut = cutBoundaries(keys, { shards: 1000 });
    const heavy = heavyHittersOf(cut.boundaries, keys);
    expect(heavy.length).toBeGreaterThan(5);
    expect(Math.max(...heavy.map((h) => h.shards.length))).toBeGreaterThanOrEqual(5);
    const loads = oracleLoads(cut.boundaries, keys);
    expect(maxOverMean(loads)).toBeLessThanOrEqual(1.08);
    // Every item of a heavy value is counted once, spread evenly over its run.
    expect(loads.reduce((a, b) => a + b, 0)).toBeCloseTo(keys.total, 6);
  });

  it('handles a heavy first value, and the empty string as a heavy value', () => {
    for (const first of ['', 'aaa']) {
      const map = new Map<string, number>([[first, 500]]);
      for (let i = 0; i < 500; i++) map.set(`b${i}`, 1);
      const keys = keyCountsFromMap(map);
      const cut = cutBoundaries(keys, { shards: 10 });
      expect(cut.boundaries[0]).toBe('');
      expect(heavyHittersOf(cut.boundaries, keys)[0]?.value).toBe(first);
      const balance = maxOverMean(oracleLoads(cut.boundaries, keys));
      if (first === '') expect(balance).toBeLessThanOrEqual(1.01);
      // boundaries[0] is '', so a heavy 'aaa' cannot start its run at shard 0: shard 0
      // stays empty and 9 shards carry 1,000 items; 5 × 100 + 20, then 4 × 120 is best.
      else expect(balance).toBeCloseTo(1.2, 9);
    }
  });
});
