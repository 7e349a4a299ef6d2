import { describe, expect, it } from 'vitest';
import { balanceOf } from '../../../src/boundaries/shard-loads';
import { RESHARD_PAYS_AT, reshardVerdict } from '../../../src/cli/reshard-verdict';

const cost = (moved: number, total: number) => ({
  moved,
  total,
  fraction: moved / total,
  incoming: new Float64Array(0),
});

describe('reshardVerdict', () => {
  it('pays when the largest shard would carry at least the threshold less', () => {
    const verdict = reshardVerdict(balanceOf([700, 100, 100, 100]), balanceOf([250, 250, 250, 250]), cost(450, 1000));
    expect(verdict).toMatchObject({ current: 2.8, achievable: 1, pays: true, moved: 450 });
    expect(verdict.relief).toBeCloseTo(1 - 250 / 700, 12);
    expect(verdict.line).toBe(
      'reshard would pay: the largest shard would carry 64.3 % less (threshold: 10.0 % less) ' +
        'for 450 items moved (45.0 %)',
    );
  });

  it('does not pay below the threshold, and says so when the new cut is worse', () => {
    const small = reshardVerdict(balanceOf([260, 250, 245, 245]), balanceOf([250, 250, 250, 250]), cost(12, 1000));
    expect(small.pays).toBe(false);
    expect(small.relief).toBeLessThan(RESHARD_PAYS_AT);
    const worse = reshardVerdict(balanceOf([250, 250, 250, 250]), balanceOf([300, 200, 250, 250]), cost(50, 1000));
    expect(worse.pays).toBe(false);
    expect(worse.line).toMatch(
      /^reshard would not pay: the largest shard would carry 20\.0 % more \(threshold: 10\.0 % less\)/,
    );
  });

  it('compares largest shards in items when the shard count changes', () => {
    // 2 shards of 500 → 4 of 250: largest ÷ mean is 1 either way, yet the hottest shard halves.
    const verdict = reshardVerdict(balanceOf([500, 500]), balanceOf([250, 250, 250, 250]), cost(500, 1000));
    expect(verdict).toMatchObject({ current: 1, achievable: 1, relief: 0.5, pays: true });
  });
});
