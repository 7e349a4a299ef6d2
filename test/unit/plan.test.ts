import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../src/core/collation';
import { indexSortKey, valueOfIndexKey } from '../../src/core/index-key';
import { inRange } from '../../src/core/key-range';
import { normalize } from '../../src/core/normalize';
import { planListing, type ListFilter } from '../../src/core/plan';
import { createStrategy } from '../../src/core/strategies';

const VALUES = [
  '',
  'a',
  'a\u0001',
  'a\u0001b',
  'a b',
  'ab',
  'abc',
  'b',
  'bz',
  '\uE000',
  '\uE000x',
  '\uFFFD',
  '\u{1F600}',
  '\u{1F600}a',
  '\u{10FFFF}',
];
const KEYS = VALUES.flatMap((value, i) => [indexSortKey(value, [`p${i}`, 's']), indexSortKey(value, [`q${i}`, 's'])]);

const context = { strategy: createStrategy({ kind: 'hash', shards: 3 }), normalization: 'none' as const };

function matches(filter: ListFilter, value: string): boolean {
  switch (filter.kind) {
    case 'all':
      return true;
    case 'key':
      return value === filter.key;
    case 'prefix':
      return value.startsWith(filter.prefix);
    case 'between':
      return (
        (filter.from === undefined || compareKeys(filter.from, value) <= 0) &&
        (filter.to === undefined || compareKeys(value, filter.to) <= 0)
      );
    case 'values': {
      const { lower, upper } = filter.range;
      const above = lower === undefined ? 1 : compareKeys(value, lower.value) || (lower.inclusive ? 1 : -1);
      const below = upper === undefined ? 1 : compareKeys(upper.value, value) || (upper.inclusive ? 1 : -1);
      return above > 0 && below > 0;
    }
  }
}

const FILTERS: ListFilter[] = [
  { kind: 'all' },
  ...VALUES.map((key): ListFilter => ({ kind: 'key', key })),
  ...VALUES.map((prefix): ListFilter => ({ kind: 'prefix', prefix })),
  ...VALUES.flatMap((from) =>
    VALUES.filter((to) => compareKeys(from, to) <= 0).map((to): ListFilter => ({ kind: 'between', from, to })),
  ),
  ...VALUES.map((from): ListFilter => ({ kind: 'between', from })),
  ...VALUES.map((to): ListFilter => ({ kind: 'between', to })),
  ...VALUES.flatMap((value): ListFilter[] => [
    { kind: 'values', range: { lower: { value, inclusive: true }, upper: { value, inclusive: true } }, exact: true },
    { kind: 'values', range: { lower: { value, inclusive: false } }, exact: false },
    { kind: 'values', range: { upper: { value, inclusive: false } }, exact: false },
  ]),
];

describe('planListing', () => {
  it('bounds index keys exactly as the filter selects values (with and without a cursor)', () => {
    for (const filter of FILTERS) {
      for (const order of ['asc', 'desc'] as const) {
        const { keyRange } = planListing(context, { filter, order });
        for (const key of KEYS) {
          const value = valueOfIndexKey(key);
          expect(inRange(key, keyRange), `${JSON.stringify(filter)} ${JSON.stringify(key)}`).toBe(
            matches(filter, value),
          );
        }
        for (const after of KEYS) {
          const { keyRange: resumed } = planListing(context, { filter, order, after });
          for (const key of KEYS) {
            const value = valueOfIndexKey(key);
            const beyond = order === 'asc' ? compareKeys(key, after) > 0 : compareKeys(key, after) < 0;
            expect(inRange(key, resumed)).toBe(matches(filter, value) && beyond);
          }
        }
      }
    }
  });

  it('reads one hash shard for a key, all of them otherwise', () => {
    const key = planListing(context, { filter: { kind: 'key', key: 'abc' }, order: 'asc' });
    expect(key.groups).toEqual([[context.strategy.shardsForValue('abc')[0]]]);
    expect(planListing(context, { filter: { kind: 'prefix', prefix: 'a' }, order: 'asc' }).groups).toEqual([[0, 1, 2]]);
  });

  it('walks range shards in order, skips those a filter cannot reach, reverses for desc', () => {
    const range = {
      strategy: createStrategy({ kind: 'range', boundaries: ['', 'c', 'h', 'n', 't'] }),
      normalization: 'nfkd-lower' as const,
    };
    expect(planListing(range, { filter: { kind: 'between', from: 'd', to: 'O' }, order: 'asc' }).groups).toEqual([
      [1],
      [2],
      [3],
    ]);
    expect(planListing(range, { filter: { kind: 'prefix', prefix: 'H' }, order: 'desc' }).groups).toEqual([[2]]);
    expect(
      planListing(range, { filter: { kind: 'all' }, order: 'desc', after: indexSortKey('d', ['x']) }).groups,
    ).toEqual([[1], [0]]);
  });

  it('refuses from after to', () => {
    expect(() => planListing(context, { filter: { kind: 'between', from: 'b', to: 'a' }, order: 'asc' })).toThrow(
      /from must not sort after to/,
    );
  });

  it('normalizes filters like values', () => {
    const nfkd = { ...context, normalization: 'nfkd-lower' as const };
    const { keyRange } = planListing(nfkd, { filter: { kind: 'key', key: 'ＡＢＣ' }, order: 'asc' });
    expect(inRange(indexSortKey(normalize('abc', 'nfkd-lower'), ['k']), keyRange)).toBe(true);
  });

  it('plans empty filter values as what they mean, with no empty key bound left for DynamoDB to refuse', () => {
    const all = planListing(context, { filter: { kind: 'all' }, order: 'asc' });
    for (const filter of [
      { kind: 'prefix', prefix: '' },
      { kind: 'between', from: '' },
    ] as const) {
      expect(planListing(context, { filter, order: 'asc' }), JSON.stringify(filter)).toEqual(all);
    }
    for (const filter of [
      { kind: 'key', key: '' },
      { kind: 'between', to: '' },
      { kind: 'between', from: '', to: '' },
    ]) {
      const { keyRange } = planListing(context, { filter: filter as ListFilter, order: 'desc' });
      expect(keyRange.lower, JSON.stringify(filter)).toBeUndefined();
      expect(KEYS.filter((key) => inRange(key, keyRange)).map(valueOfIndexKey)).toEqual(['', '']);
    }
  });
});
