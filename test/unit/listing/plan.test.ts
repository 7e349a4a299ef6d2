import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../../src/core/collation';
import { indexSortKey, valueOfIndexKey } from '../../../src/core/index-key';
import { inRange } from '../../../src/core/key-range';
import { normalize } from '../../../src/core/normalize';
import { orderOf } from '../../../src/core/order';
import { type FilterQuery, listingFilter } from '../../../src/core/order-filter';
import type { OrderDirection } from '../../../src/core/order-encoding';
import { planListing, type ListFilter } from '../../../src/core/plan';
import { strategyFromConfig } from '../../../src/core/strategies';

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

const hash = strategyFromConfig({ kind: 'hash', shards: 3 });
/** A collection ordered by one string field, as written (no normalization). */
const PLAIN = orderOf({ field: 'title', normalization: 'none' });

/** What a listing's query parameters select, by their meaning (the oracle). */
function matches(query: FilterQuery, value: string): boolean {
  const { key, prefix, from, to } = query;
  return (
    (key === undefined || value === key) &&
    (prefix === undefined || value.startsWith(prefix)) &&
    (from === undefined || compareKeys(from, value) <= 0) &&
    (to === undefined || compareKeys(value, to) <= 0)
  );
}

const QUERIES: FilterQuery[] = [
  {},
  ...VALUES.map((key) => ({ key })),
  ...VALUES.map((prefix) => ({ prefix })),
  ...VALUES.flatMap((from) => VALUES.filter((to) => compareKeys(from, to) <= 0).map((to) => ({ from, to }))),
  ...VALUES.map((from) => ({ from })),
  ...VALUES.map((to) => ({ to })),
];

const plan = (query: FilterQuery, direction: OrderDirection, after?: string, strategy = hash, by = PLAIN) =>
  planListing(strategy, { filter: listingFilter(by, query).filter, direction, ...(after !== undefined && { after }) });

describe('planListing', () => {
  it('bounds index keys exactly as the query selects values (with and without a cursor)', () => {
    for (const query of QUERIES) {
      for (const direction of ['asc', 'desc'] as const) {
        const { keyRange } = plan(query, direction);
        for (const key of KEYS) {
          const value = valueOfIndexKey(key);
          expect(inRange(key, keyRange), `${JSON.stringify(query)} ${JSON.stringify(key)}`).toBe(matches(query, value));
        }
        for (const after of KEYS) {
          const { keyRange: resumed } = plan(query, direction, after);
          for (const key of KEYS) {
            const value = valueOfIndexKey(key);
            const beyond = direction === 'asc' ? compareKeys(key, after) > 0 : compareKeys(key, after) < 0;
            expect(inRange(key, resumed)).toBe(matches(query, value) && beyond);
          }
        }
      }
    }
  });

  it('bounds raw value ranges exactly too (inclusive and exclusive, as typed orders give them)', () => {
    for (const value of VALUES) {
      const ranges: [ListFilter, (v: string) => boolean][] = [
        [
          {
            kind: 'values',
            range: { lower: { value, inclusive: true }, upper: { value, inclusive: true } },
            exact: true,
          },
          (v) => v === value,
        ],
        [
          { kind: 'values', range: { lower: { value, inclusive: false } }, exact: false },
          (v) => compareKeys(v, value) > 0,
        ],
        [
          { kind: 'values', range: { upper: { value, inclusive: false } }, exact: false },
          (v) => compareKeys(v, value) < 0,
        ],
      ];
      for (const [filter, selects] of ranges) {
        const { keyRange } = planListing(hash, { filter, direction: 'asc' });
        for (const key of KEYS) expect(inRange(key, keyRange)).toBe(selects(valueOfIndexKey(key)));
      }
    }
  });

  it('reads one hash shard for a key, all of them otherwise', () => {
    expect(plan({ key: 'abc' }, 'asc').groups).toEqual([[hash.shardsForValue('abc')[0]]]);
    expect(plan({ prefix: 'a' }, 'asc').groups).toEqual([[0, 1, 2]]);
  });

  it('walks range shards in order, skips those a filter cannot reach, reverses for desc', () => {
    const range = strategyFromConfig({ kind: 'range', boundaries: ['', 'c', 'h', 'n', 't'] });
    const folded = orderOf({ field: 'title', normalization: 'nfkd-lower' });
    expect(plan({ from: 'd', to: 'O' }, 'asc', undefined, range, folded).groups).toEqual([[1], [2], [3]]);
    expect(plan({ prefix: 'H' }, 'desc', undefined, range, folded).groups).toEqual([[2]]);
    expect(
      planListing(range, { filter: { kind: 'all' }, direction: 'desc', after: indexSortKey('d', ['x']) }).groups,
    ).toEqual([[1], [0]]);
  });

  it('refuses from after to, and values no index key can hold', () => {
    expect(() => plan({ from: 'b', to: 'a' }, 'asc')).toThrow(/from must not be above to/);
    expect(() => plan({ key: 'a\u0000' }, 'asc')).toThrow(/U\+0000/);
    expect(() => plan({ prefix: '\uD800' }, 'asc')).toThrow(/unpaired surrogate/);
    expect(() => plan({ key: 'a', prefix: 'a' }, 'asc')).toThrow(/use at most one filter/);
  });

  it('normalizes filters like values', () => {
    const folded = orderOf({ field: 'title', normalization: 'nfkd-lower' });
    const { keyRange } = plan({ key: 'ＡＢＣ' }, 'asc', undefined, hash, folded);
    expect(inRange(indexSortKey(normalize('abc', 'nfkd-lower'), ['k']), keyRange)).toBe(true);
  });

  it('plans empty filter values as what they mean, with no empty key bound left for DynamoDB to refuse', () => {
    const all = planListing(hash, { filter: { kind: 'all' }, direction: 'asc' });
    for (const query of [{ prefix: '' }, { from: '' }]) {
      expect(plan(query, 'asc'), JSON.stringify(query)).toEqual(all);
    }
    for (const query of [{ key: '' }, { to: '' }, { from: '', to: '' }]) {
      const { keyRange } = plan(query, 'desc');
      expect(keyRange.lower, JSON.stringify(query)).toBeUndefined();
      expect(KEYS.filter((key) => inRange(key, keyRange)).map(valueOfIndexKey)).toEqual(['', '']);
    }
  });
});
