import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../devtools/random';
import { bootstrapInterval, quantile } from '../../../devtools/stats';

/** Lognormal draws (median 8, σ 0.8), as the hedging bench's delay. */
function lognormal(count: number, random: () => number): number[] {
  return Array.from(
    { length: count },
    () => 8 * Math.exp(0.8 * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())),
  );
}

describe('bootstrapInterval', () => {
  const p99Ratio = (a: readonly number[], b: readonly number[]) => quantile(a, 0.99) / quantile(b, 0.99);

  it('holds the ratio of two samples of one distribution near 1, and narrows as the samples grow', () => {
    const random = seededRandom(7);
    const [low, high] = bootstrapInterval(lognormal(500, random), lognormal(500, random), p99Ratio, random, {
      rounds: 200,
    });
    expect(low).toBeLessThan(1);
    expect(high).toBeGreaterThan(1);
    const [bigLow, bigHigh] = bootstrapInterval(lognormal(4000, random), lognormal(4000, random), p99Ratio, random, {
      rounds: 200,
    });
    expect(bigHigh - bigLow).toBeLessThan((high - low) / 2);
  });

  it('covers the true ratio about as often as it says', () => {
    // Second sample scaled by 1.5: the true ratio of p99s is 1/1.5.
    const random = seededRandom(11);
    let covered = 0;
    const runs = 60;
    for (let run = 0; run < runs; run++) {
      const first = lognormal(500, random);
      const second = lognormal(500, random).map((value) => value * 1.5);
      const [low, high] = bootstrapInterval(first, second, p99Ratio, random, { rounds: 200 });
      if (low <= 1 / 1.5 && 1 / 1.5 <= high) covered++;
    }
    // 90% asked for: 54 of 60 expected, a binomial spread of about ±2.3.
    expect(covered).toBeGreaterThanOrEqual(46);
    expect(covered).toBeLessThanOrEqual(59);
  });
});
