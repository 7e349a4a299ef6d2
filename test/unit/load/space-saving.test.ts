import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpaceSaving } from '../../../src/core/space-saving.js';
import { pickZipf, seededRandom } from '../../../devtools/random.js';

/** A skewed stream: key i drawn with weight 1/(i+1), over `distinct` keys. */
function zipfStream(length: number, distinct: number, seed: number): string[] {
  const random = seededRandom(seed);
  const keys = Array.from({ length: distinct }, (_, i) => `key-${i}`);
  return Array.from({ length }, () => pickZipf(random, keys));
}

function trueCounts(stream: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of stream) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/** The guarantees the sketch documents, checked against the exact counts. */
function expectBounds(sketch: SpaceSaving, truth: Map<string, number>, total: number): void {
  expect(sketch.total).toBe(total);
  expect(sketch.top().length).toBeLessThanOrEqual(sketch.capacity);
  expect(sketch.errorBound).toBeLessThanOrEqual(total / sketch.capacity);
  for (const hit of sketch.top()) {
    const actual = truth.get(hit.key) ?? 0;
    expect(hit.count).toBeGreaterThanOrEqual(actual);
    expect(hit.count - hit.error).toBeLessThanOrEqual(actual);
    expect(hit.error).toBeLessThanOrEqual(sketch.errorBound);
  }
  // A key seen more often than the bound must be tracked.
  const tracked = new Set(sketch.top().map((hit) => hit.key));
  for (const [key, count] of truth) {
    if (count > sketch.errorBound) expect(tracked.has(key), key).toBe(true);
  }
}

describe('SpaceSaving', () => {
  it('counts exactly while the distinct keys fit', () => {
    const sketch = new SpaceSaving(10);
    for (const key of ['a', 'b', 'a', 'c', 'a', 'b']) sketch.add(key);
    expect(sketch.top()).toEqual([
      { key: 'a', count: 3, error: 0 },
      { key: 'b', count: 2, error: 0 },
      { key: 'c', count: 1, error: 0 },
    ]);
    expect(sketch.errorBound).toBe(0);
  });

  it('stays within k counters and finds the hot key after 20,000 distinct keys', () => {
    const sketch = new SpaceSaving(100);
    const stream: string[] = [];
    for (let i = 0; i < 20_000; i++) stream.push(`cold-${i}`, ...(i % 2 === 0 ? ['hot'] : []));
    for (const key of stream) sketch.add(key);
    expect(sketch.top().length).toBe(100);
    expect(sketch.top(1)[0]?.key).toBe('hot');
    expectBounds(sketch, trueCounts(stream), stream.length);
  });

  it('keeps its bounds on skewed streams', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 1, max: 50 }), (seed, capacity) => {
        const stream = zipfStream(3_000, 500, seed);
        const sketch = new SpaceSaving(capacity);
        for (const key of stream) sketch.add(key);
        expectBounds(sketch, trueCounts(stream), stream.length);
      }),
      { numRuns: 40 },
    );
  });

  it('merges sketches of parts into a sketch of the whole', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 2, max: 6 }), (seed, parts) => {
        const stream = zipfStream(4_000, 800, seed);
        const merged = new SpaceSaving(40);
        for (let p = 0; p < parts; p++) {
          const part = new SpaceSaving(40);
          for (const [i, key] of stream.entries()) if (i % parts === p) part.add(key);
          merged.merge(part);
        }
        expectBounds(merged, trueCounts(stream), stream.length);
      }),
      { numRuns: 30 },
    );
  });

  it('takes weights and ignores non-positive ones', () => {
    const sketch = new SpaceSaving(2);
    sketch.add('a', 5);
    sketch.add('b', 0);
    sketch.add('c', -1);
    expect(sketch.top()).toEqual([{ key: 'a', count: 5, error: 0 }]);
    expect(() => new SpaceSaving(0)).toThrow(RangeError);
  });
});
