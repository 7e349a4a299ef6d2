import { describe, expect, it } from 'vitest';
import { keyCountsOf } from '../../../src/boundaries/key-counts';
import { reshardCost } from '../../../src/boundaries/reshard-cost';

const keys = keyCountsOf(['a', 'b', 'g', 'g', 'n', 'x', 'x', 'x', 'x', 'x', 'x', 'y', 'z']);

describe('reshardCost', () => {
  it('is zero for the same boundaries', () => {
    const cost = reshardCost(['', 'm'], ['', 'm'], keys);
    expect(cost.moved).toBe(0);
    expect(cost.fraction).toBe(0);
  });

  it('moves every item whose shard index changes, counted per item', () => {
    // Old: [a b g g] [n x… y z]; new: [a b] [g g] [n x… y z] — g moves 0 → 1, n..z move 1 → 2.
    const cost = reshardCost(['', 'm'], ['', 'f', 'm'], keys);
    expect(cost.moved).toBe(2 + 1 + 6 + 2);
    expect(cost.total).toBe(13);
    expect(Array.from(cost.incoming)).toEqual([0, 2, 9]);
  });

  it('keeps a heavy hitter on the shards its old and new runs share', () => {
    // x spread over 1–2, then over 1–3: x stays; y and z go from shard 2 to 3.
    const widen = reshardCost(['', 'x', 'x'], ['', 'x', 'x', 'x'], keys);
    expect(widen.moved).toBe(2);
    // x spread over 1–3, then only on 1: the items on 2 and 3 (two thirds) move.
    const narrow = reshardCost(['', 'x', 'x', 'x'], ['', 'x'], keys);
    expect(narrow.moved).toBeCloseTo(6 * (2 / 3) + 2, 9);
  });
});
