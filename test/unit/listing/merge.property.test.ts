import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../../src/core/collation';
import { KWayMerge } from '../../../src/core/merge';
import { text } from '../../support/arbitraries';

/**
 * Keys from a handful of units, so that keys share long prefixes, one is often a prefix
 * of another, and the surrogate vs U+E000–U+FFFF order is at stake: the cases where the
 * merge's offset-value codes tie and must be resolved from the offset on.
 */
const crowdedKey = fc.string({
  unit: fc.constantFrom('a', 'b', '\u0000', '\ue000', '\uffff', '\u{1f600}', '\u{10000}'),
  maxLength: 6,
});

/** Unique keys, dealt to `k` sources, each source cut into chunks of random sizes. */
const scenario = (key: fc.Arbitrary<string>) =>
  fc
    .record({
      keys: fc.uniqueArray(key, { maxLength: 120 }),
      sources: fc.integer({ min: 1, max: 8 }),
      seed: fc.array(fc.nat(), { minLength: 1, maxLength: 64 }),
      direction: fc.constantFrom('asc' as const, 'desc' as const),
      stopAfter: fc.option(fc.nat({ max: 130 }), { nil: undefined }),
    })
    .map(({ keys, sources, seed, direction, stopAfter }) => {
      let i = 0;
      const next = () => seed[i++ % seed.length]!;
      const sign = direction === 'asc' ? 1 : -1;
      const shards: string[][] = Array.from({ length: sources }, () => []);
      for (const key of keys) shards[next() % sources]!.push(key);
      const chunked = shards.map((shard) => {
        shard.sort((a, b) => sign * compareKeys(a, b));
        const chunks: string[][] = [];
        for (let at = 0; at < shard.length; ) {
          // Empty pages happen (a page cut off before any item in range).
          if (next() % 4 === 0) chunks.push([]);
          const size = 1 + (next() % 4);
          chunks.push(shard.slice(at, at + size));
          at += size;
        }
        return chunks;
      });
      return { keys, direction, sign, chunked, stopAfter };
    });

describe('KWayMerge (property)', () => {
  it.each([
    ['any keys', text(8)],
    ['keys crowded on shared prefixes', crowdedKey],
  ])('emits exactly the sorted union, for any dealing, chunking and direction (%s)', (_, key) => {
    fc.assert(
      fc.property(scenario(key), ({ keys, direction, sign, chunked, stopAfter }) => {
        const merge = new KWayMerge<string>(chunked.length, (key) => key, direction);
        const served = chunked.map(() => 0);
        const out: string[] = [];
        for (let steps = 0; ; steps++) {
          expect(steps).toBeLessThan(10_000);
          const stop = merge.emitInto(out, stopAfter ?? Infinity);
          if (stop.kind !== 'need') break;
          for (const source of stop.sources) {
            const chunks = chunked[source]!;
            const page = chunks[served[source]!] ?? [];
            served[source]!++;
            merge.supply(source, [...page], served[source]! >= chunks.length);
          }
        }
        const expected = [...keys].sort((a, b) => sign * compareKeys(a, b));
        expect(out).toEqual(stopAfter === undefined ? expected : expected.slice(0, stopAfter));
        // Lazy: a source is read only up to the first non-empty page after its last emitted item.
        if (stopAfter !== undefined) {
          const emitted = new Set(out);
          chunked.forEach((chunks, source) => {
            let last = -1;
            chunks.forEach((chunk, i) => {
              if (chunk.some((key) => emitted.has(key))) last = i;
            });
            let i = last + 1;
            while (i < chunks.length && chunks[i]!.length === 0) i++;
            expect(served[source]!).toBeLessThanOrEqual(Math.max(1, Math.min(chunks.length, i + 1)));
          });
        }
      }),
      { numRuns: 1500 },
    );
  });
});
