import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../devtools/random';
import { strategyFromConfig } from '../../../src/core/strategies';
import { heavyHitters } from '../../../src/core/strategies/range';
import { HEAVY } from './fixtures';

// The contract (builtin.test.ts) holds for range; these are what only range promises.
describe('range strategy heavy hitters', () => {
  const strategy = strategyFromConfig({ kind: 'range', boundaries: HEAVY });

  it('spreads writes of a heavy value uniformly over its run', () => {
    const random = seededRandom(5);
    const counts = [0, 0, 0];
    for (let n = 0; n < 30_000; n++) counts[strategy.shardForWrite('greatest hits', random) - 2]! += 1;
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(600);
  });

  it('keeps values above a heavy value on the last shard of its run', () => {
    expect(strategy.shardsForValue('greatest hits!')).toEqual([4]);
    expect(strategy.shardsForValue('greatest hit')).toEqual([1]);
  });

  it('merges the run into one group only where the range reaches the heavy value', () => {
    expect(strategy.groupsForRange({})).toEqual([[0], [1], [2, 3, 4], [5], [6, 7], [8], [9]]);
    expect(strategy.groupsForRange({ lower: { value: 'greatest hits!', inclusive: true } })[0]).toEqual([4]);
  });

  it('reports its heavy hitters', () => {
    expect(heavyHitters(HEAVY)).toEqual([
      { value: 'greatest hits', shards: [2, 3, 4] },
      { value: 'x', shards: [6, 7] },
    ]);
  });

  it('refuses boundaries out of code point order or without a leading empty string', () => {
    expect(() => strategyFromConfig({ kind: 'range', boundaries: ['', '\u{1F600}', '\uE000'] })).toThrow(
      /code point order/,
    );
    expect(() => strategyFromConfig({ kind: 'range', boundaries: ['a'] })).toThrow(/first boundary/);
  });

  it('keeps its boundaries as its config', () => {
    expect(strategy.config).toEqual({ kind: 'range', boundaries: HEAVY });
    expect(strategy.boundaries).toEqual(HEAVY);
  });
});
