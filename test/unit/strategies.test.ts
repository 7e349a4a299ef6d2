import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../src/core/collation';
import { createStrategy, type ShardStrategy, type ValueRange } from '../../src/core/strategies';
import { heavyHitters } from '../../src/core/strategies/range';
import { seededRandom } from '../../devtools/random';

const HEAVY = ['', 'b', 'greatest hits', 'greatest hits', 'greatest hits', 'm', 'x', 'x', '\uE000', '\u{1F600}'];

const STRATEGIES: [string, ShardStrategy][] = [
  ['random', createStrategy({ kind: 'random', shards: 7 })],
  ['hash', createStrategy({ kind: 'hash', shards: 7 })],
  ['range', createStrategy({ kind: 'range', boundaries: ['', 'c', 'h', 'n', 'st', '\uFFFD', '\u{1F3B8}'] })],
  ['range with heavy hitters', createStrategy({ kind: 'range', boundaries: HEAVY })],
];

const VALUES = [
  '',
  'a',
  'b',
  'ba',
  'greatest hit',
  'greatest hits',
  'greatest hits!',
  'lo',
  'm',
  'x',
  'xa',
  'zz',
  '\uE000',
  '\uFFFD',
  '\u{1F3B8}',
  '\u{1F600}',
  '\u{1F601}',
];

/** One contract, run against every strategy (Hono's common.case pattern). */
describe.each(STRATEGIES)('strategy contract: %s', (_, strategy) => {
  const random = seededRandom(9);

  it('writes every value to a shard that reads of that value visit', () => {
    for (const value of VALUES) {
      const readable = strategy.shardsForValue(value);
      for (let n = 0; n < 50; n++) {
        const shard = strategy.shardForWrite(value, random);
        expect(shard).toBeGreaterThanOrEqual(0);
        expect(shard).toBeLessThan(strategy.shardCount);
        expect(readable, `${value} written to ${shard}`).toContain(shard);
      }
    }
  });

  it('plans range reads over every shard a value in the range can be written to, in ascending groups', () => {
    const ranges: ValueRange[] = [
      {},
      { lower: { value: 'b', inclusive: true } },
      { upper: { value: 'greatest hits', inclusive: true } },
      { lower: { value: 'greatest hits', inclusive: true }, upper: { value: 'm', inclusive: false } },
      { lower: { value: '\uE000', inclusive: true }, upper: { value: '\u{1F600}', inclusive: true } },
      { lower: { value: 'x', inclusive: true }, upper: { value: 'x', inclusive: true } },
    ];
    for (const range of ranges) {
      const groups = strategy.groupsForRange(range);
      const planned = groups.flat();
      expect(new Set(planned).size, 'no shard twice').toBe(planned.length);
      for (const value of VALUES.filter((v) => inValueRange(v, range))) {
        for (const shard of strategy.shardsForValue(value))
          expect(planned, `${value} in ${JSON.stringify(range)}`).toContain(shard);
      }
      if (strategy.kind === 'range') expect(planned).toEqual([...planned].sort((a, b) => a - b));
    }
  });
});

describe('range strategy heavy hitters', () => {
  const strategy = createStrategy({ kind: 'range', boundaries: HEAVY });

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
    expect(() => createStrategy({ kind: 'range', boundaries: ['', '\u{1F600}', '\uE000'] })).toThrow(
      /code point order/,
    );
    expect(() => createStrategy({ kind: 'range', boundaries: ['a'] })).toThrow(/first boundary/);
  });
});

function inValueRange(value: string, range: ValueRange): boolean {
  const { lower, upper } = range;
  if (lower && (compareKeys(value, lower.value) < 0 || (!lower.inclusive && value === lower.value))) return false;
  if (upper && (compareKeys(value, upper.value) > 0 || (!upper.inclusive && value === upper.value))) return false;
  return true;
}
