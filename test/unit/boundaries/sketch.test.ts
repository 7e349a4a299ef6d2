import { describe, expect, it } from 'vitest';
import { seedShapedTitles } from '../../../devtools/titles';
import { shuffledCopies } from '../../../devtools/zipf-keys';
import { cutBoundaries } from '../../../src/boundaries/cut-boundaries';
import { KeyCollector } from '../../../src/boundaries/key-collector';
import { keyCountsOf, type KeyCounts } from '../../../src/boundaries/key-counts';
import { KeySketch } from '../../../src/boundaries/key-sketch';
import { normalizeKey } from '../../../src/boundaries/normalize-keys';
import { QuantileSketch } from '../../../src/boundaries/quantile-sketch';
import { balanceOf, heavyHittersOf, shardLoads } from '../../../src/boundaries/shard-loads';
import { bisectRight, compareKeys } from '../../../src/core/collation';

/** Seeded, seed-shaped titles in a shuffled order, normalized: the stream the sketches see. */
function titles(keys: number, seed: number): string[] {
  const generated = seedShapedTitles({ keys, seed });
  return Array.from(shuffledCopies(generated, seed), (i) => normalizeKey(generated.titles[i]!, 'nfkd-lower'));
}

/** Items at or below `key` in exact counts (prefix sums over the sorted values). */
function rankIn(keys: KeyCounts<readonly string[]>, prefix: Float64Array, key: string): number {
  return prefix[bisectRight(keys.values, key)]!;
}

function prefixOf(counts: ArrayLike<number>): Float64Array {
  const prefix = new Float64Array(counts.length + 1);
  for (let i = 0; i < counts.length; i++) prefix[i + 1] = prefix[i]! + counts[i]!;
  return prefix;
}

/** The largest rank error of the sketch's weighted keys, over every exact distinct key. */
function worstRankError(sketch: QuantileSketch, exact: KeyCounts<readonly string[]>): number {
  const { values, weights } = sketch.weighted();
  const sketched = { values, counts: Uint32Array.from(weights), total: 0 };
  const sketchPrefix = prefixOf(weights);
  const exactPrefix = prefixOf(exact.counts);
  let worst = 0;
  exact.values.forEach((key, i) => {
    const truth = exactPrefix[i + 1]!;
    worst = Math.max(worst, Math.abs(rankIn(sketched, sketchPrefix, key) - truth));
  });
  return worst;
}

const stream = titles(200_000, 15);
const exact = keyCountsOf(stream);

describe('quantile sketch', () => {
  it('keeps every rank within its stated bound, in memory far below the input', () => {
    const sketch = new QuantileSketch(1_000);
    for (const key of stream) sketch.add(key);
    expect(sketch.total).toBe(stream.length);
    // Compactions happened, so the bound is not trivially 0, and memory stayed small.
    expect(sketch.errorBound).toBeGreaterThan(0);
    expect(sketch.retained).toBeLessThan(1_000 * 10);
    const worst = worstRankError(sketch, exact);
    expect(worst).toBeLessThanOrEqual(sketch.errorBound);
    // The weights add up to the items exactly.
    expect(sketch.weighted().weights.reduce((a, b) => a + b, 0)).toBe(stream.length);
  });

  it('merges sketches of parts into one whose ranks stay within the summed bound', () => {
    const parts = [0, 1, 2, 3].map((p) => {
      const sketch = new QuantileSketch(800, 100 + p);
      // Contiguous quarters of the stream: each part sees different keys.
      for (const key of stream.slice((p * stream.length) / 4, ((p + 1) * stream.length) / 4)) sketch.add(key);
      return sketch;
    });
    const bounds = parts.map((s) => s.errorBound);
    const merged = parts[0]!;
    for (const other of parts.slice(1)) merged.merge(other);
    expect(merged.total).toBe(stream.length);
    expect(merged.errorBound).toBeGreaterThanOrEqual(bounds.reduce((a, b) => a + b, 0));
    expect(worstRankError(merged, exact)).toBeLessThanOrEqual(merged.errorBound);
    expect(merged.weighted().values.every((v, i, all) => i === 0 || compareKeys(all[i - 1]!, v) < 0)).toBe(true);
  });
});

describe('cutting from a sketch', () => {
  it('balances the real keys within the balance it reports plus its stated bound', () => {
    const shards = 21;
    const sketch = new KeySketch(20_000, shards);
    for (const key of stream) sketch.add(key);
    const sketched = sketch.keyCounts(shards);
    const cut = cutBoundaries(sketched, { shards });
    const claimed = balanceOf(shardLoads(cut.boundaries, sketched)).maxOverMean;
    const real = balanceOf(shardLoads(cut.boundaries, exact));
    const bound = (2 * sketch.bounds.rankError) / real.mean;
    expect(bound).toBeLessThan(0.05);
    expect(Math.abs(real.maxOverMean - claimed)).toBeLessThanOrEqual(bound);
    expect(real.maxOverMean).toBeLessThan(1.03);
  });

  it('spreads heavy hitters as the exact cut does (Space-Saving counts)', () => {
    const shards = 8;
    // One key with 30 % of the items, one with 25 %, the rest titles, interleaved.
    const keys = stream.slice(0, 45_000);
    for (let i = 0; i < 30_000; i++) keys.push('greatest hits');
    for (let i = 0; i < 25_000; i++) keys.push('live');
    const order = Array.from(keys.keys()).sort((a, b) => ((a * 2654435761) % 1000003) - ((b * 2654435761) % 1000003));
    const exactKeys = keyCountsOf(keys);
    const sketch = new KeySketch(1_000, shards);
    for (const i of order) sketch.add(keys[i]!);
    const heavy = (counts: KeyCounts) =>
      heavyHittersOf(cutBoundaries(counts, { shards }).boundaries, counts).map((h) => [h.value, h.shards.length]);
    expect(heavy(sketch.keyCounts(shards))).toEqual(heavy(exactKeys));
    expect(heavy(exactKeys).length).toBe(2);
  });
});

describe('key collector', () => {
  it('turns into a sketch when the exact keys outgrow their limit, and keeps every key', () => {
    const collector = new KeyCollector({ shards: 21, exactLimitBytes: 1 << 20, fallbackSketchBytes: 1 << 24 });
    for (const key of stream) collector.add(key);
    expect(collector.sketched).toBe(true);
    const { keys, sketch } = collector.finish();
    expect(sketch?.items).toBe(stream.length);
    expect(keys.total).toBe(stream.length);
  });
});
