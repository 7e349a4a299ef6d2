import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partitionPoint } from '../../../src/core/partition-point';

describe('partitionPoint', () => {
  it('finds the first index where the test fails, in any sub-range of a sorted array (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -20, max: 20 })).map((values) => values.sort((a, b) => a - b)),
        fc.integer({ min: -25, max: 25 }),
        fc.nat(),
        fc.nat(),
        (sorted, x, a, b) => {
          const lo = a % (sorted.length + 1);
          const hi = lo + (b % (sorted.length - lo + 1));
          let expected = lo;
          while (expected < hi && sorted[expected]! <= x) expected++;
          expect(partitionPoint(lo, hi, (i) => sorted[i]! <= x)).toBe(expected);
        },
      ),
    );
  });
});
