import { firstMapOf } from '../../../src/core/collection';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { compareKeys } from '../../../src/core/collation';
import { ExactNumber } from '../../../src/core/exact-number';
import { prepareItem } from '../../../src/core/item';
import {
  decodeOrderedValue,
  encodeOrderPrefix,
  orderOf,
  readableBoundaries,
  readableValues,
  type CollectionOrder,
} from '../../../src/core/order';
import { listingFilter } from '../../../src/core/order-filter';
import { readDate, readNumber } from '../../../src/core/order-values';

const byYear: CollectionOrder = [
  { field: 'year', type: 'number', direction: 'desc', normalization: 'none' },
  { field: 'title', type: 'string', direction: 'asc', normalization: 'nfkd-lower' },
];

function encode(order: CollectionOrder, values: unknown[]): string {
  return encodeOrderPrefix(order, values, true, (field, problem) => {
    throw new Error(`${field} ${problem}`);
  });
}

function typedCollection(order: unknown, strategy: unknown = { kind: 'hash', shards: 4 }) {
  return firstMapOf(resolveConfig({ collections: { typed: { order, strategy } } })[0]!);
}

describe('typed values', () => {
  it('refuses what is not a date, naming why', () => {
    for (const bad of ['soon', '2026-13-45', '2026-02-29', '2026-04-31', '2026-01-01T10:00', '2026-01-01T24:00Z']) {
      expect(readDate(bad), bad).toHaveProperty('problem');
    }
    expect(readDate('2024-02-29')).toHaveProperty('value');
    expect(readDate('2026-01-01T10:00:00.1234567891Z')).toHaveProperty('problem');
  });

  it('reads one instant however its offset writes it', () => {
    expect(readDate('2026-01-01T10:00:00+02:00')).toEqual(readDate('2026-01-01T08:00:00Z'));
    expect(readDate('2025-12-31T23:30:00-08:30')).toEqual(readDate('2026-01-01T08:00:00.000000000Z'));
    expect(readDate('0001-01-01')).toHaveProperty('value');
  });

  it('keeps numbers exact and within DynamoDB limits', () => {
    expect(readNumber('12.5', true)).toEqual(readNumber(new ExactNumber('12.50'), false));
    expect(readNumber('1e126', true)).toHaveProperty('problem');
    expect(readNumber('1e-131', true)).toHaveProperty('problem');
    expect(readNumber('1.000000000000000000000000000000000000001', true)).toHaveProperty('problem');
    expect(readNumber('12', false)).toEqual({ problem: 'must be a JSON number' });
    const a = encode(byYear.slice(0, 1), [new ExactNumber('9007199254740993')]);
    const b = encode(byYear.slice(0, 1), [new ExactNumber('9007199254740992')]);
    expect(compareKeys(a, b)).toBeLessThan(0); // descending
  });

  it('decodes an encoded tuple and its prefixes', () => {
    expect(decodeOrderedValue(byYear, encode(byYear, [1969, 'Abbey Road']))).toEqual([1969, 'abbey road']);
    expect(decodeOrderedValue(byYear, encode(byYear, ['123456789012345678901234567890']))).toEqual([
      '123456789012345678901234567890',
    ]);
    expect(decodeOrderedValue(byYear, '')).toEqual([]);
  });

  it('decodes a string that begins with U+FEFF in either direction (no byte-order mark dropped)', () => {
    // Found by the encoding property at 90,483 runs: a descending "\uFEFF" came back as "".
    for (const direction of ['asc', 'desc'] as const) {
      const order: CollectionOrder = [{ field: 'title', type: 'string', direction, normalization: 'none' }];
      for (const value of ['\uFEFF', '\uFEFFabc', 'a\uFEFF']) {
        expect(decodeOrderedValue(order, encode(order, [value])), `${direction} ${JSON.stringify(value)}`).toEqual([
          value,
        ]);
      }
    }
  });

  it('shows boundaries as field values only when each one ends on a whole field', () => {
    const boundaries = ['', encode(byYear, [2020]), encode(byYear, [2010, 'M'])];
    expect(readableBoundaries(byYear, boundaries)).toEqual([[], [2020], [2010, 'm']]);
    // A cut inside the year's digits reads as no tuple, so none is shown.
    expect(readableValues(byYear, encode(byYear, [2010]).slice(0, 5))).toBeUndefined();
    expect(readableBoundaries(byYear, ['', encode(byYear, [2010]).slice(0, 5)])).toBeUndefined();
    // One ascending string field is readable as it is.
    expect(readableBoundaries(orderOf({ field: 'title', normalization: 'nfkd-lower' }), ['', 'm'])).toBeUndefined();
  });
});

describe('typed filters', () => {
  it('bounds the leading field by key and the next by from/to, as a value interval', () => {
    const { filter } = listingFilter(byYear, { key: '1969', from: 'a', to: 'b' });
    expect(filter).toMatchObject({ kind: 'values', exact: false });
    const range = filter.kind === 'values' ? filter.range : {};
    const inside = encode(byYear, [1969, 'Abbey Road']);
    const outside = encode(byYear, [1969, 'Come Together']);
    expect(compareKeys(range.lower!.value, inside)).toBeLessThanOrEqual(0);
    expect(compareKeys(inside, range.upper!.value)).toBeLessThan(0);
    expect(compareKeys(outside, range.upper!.value)).toBeGreaterThan(0);
  });

  it('reads from/to on a descending field as the interval of values', () => {
    const { filter } = listingFilter(byYear, { from: '1990', to: '1999' });
    const range = filter.kind === 'values' ? filter.range : {};
    const in1995 = encode(byYear, [1995, 'x']);
    expect(compareKeys(range.lower!.value, in1995)).toBeLessThan(0);
    expect(compareKeys(in1995, range.upper!.value)).toBeLessThan(0);
    expect(compareKeys(encode(byYear, [1999, 'zzz']), range.upper!.value)).toBeLessThan(0);
    expect(compareKeys(encode(byYear, [2000]), range.lower!.value)).toBeLessThan(0);
    expect(() => listingFilter(byYear, { from: '1999', to: '1990' })).toThrow(/from must not be above to/);
  });

  it('bounds a prefix on a string field in either direction', () => {
    const names = ['', 'a', 'ab', 'abc', 'abd', 'ac', 'b', '\u0001', 'a\u0001', 'a\u0002b', 'é', 'ab\u{1F600}'];
    for (const direction of ['asc', 'desc'] as const) {
      const order: CollectionOrder = [
        { field: 'name', type: 'string', direction, normalization: 'none' },
        { field: 'n', type: 'number', direction: 'asc', normalization: 'none' },
      ];
      for (const prefix of ['a', 'ab', '\u0001', 'a\u0002']) {
        const { filter } = listingFilter(order, { prefix });
        const range = filter.kind === 'values' ? filter.range : {};
        for (const name of names) {
          const encoded = encode(order, [name]);
          const inside =
            compareKeys(range.lower!.value, encoded) <= 0 &&
            (range.upper === undefined || compareKeys(encoded, range.upper.value) < 0);
          expect(inside, `${direction} ${JSON.stringify(prefix)} ${JSON.stringify(name)}`).toBe(
            name.startsWith(prefix),
          );
        }
      }
    }
  });

  it('answers a bad value with a 400 naming parameter and field', () => {
    expect(() => listingFilter(byYear, { from: 'soon' })).toThrow('from: field "year" must be a number, not "soon"');
    expect(() => listingFilter(byYear, { key: '1e200' })).toThrow(/key: field "year" 1e200 is too large/);
    expect(() => listingFilter(byYear, { prefix: 'a' })).toThrow(/prefix applies to string fields/);
    expect(() => listingFilter(byYear.slice(0, 1), { key: '1', from: '2' })).toThrow(/only field/);
  });
});

describe('typed order config', () => {
  it('resolves order fields with defaults, and keeps "field" as the short form', () => {
    const typed = typedCollection([{ field: 'year', type: 'number', direction: 'desc' }, { field: 'title' }]);
    expect(typed.field).toBe('year');
    expect(typed.normalization).toBe('none');
    expect(orderOf(typed)).toEqual([
      { field: 'year', type: 'number', direction: 'desc', normalization: 'nfkd-lower' },
      { field: 'title', type: 'string', direction: 'asc', normalization: 'nfkd-lower' },
    ]);
    const plain = typedCollection([{ field: 'title' }]);
    expect(plain.order).toBeUndefined();
  });

  it('refuses unclear configs with a message', () => {
    const config = (collection: unknown) => () => resolveConfig({ collections: { c: collection } });
    const strategy = { kind: 'hash', shards: 2 };
    expect(config({ field: 'a', order: [{ field: 'a' }], strategy })).toThrow(/exactly one of "field"/);
    expect(config({ order: [{ field: 'a', type: 'money' }], strategy })).toThrow(/^collections\.c\.order\.0\.type: /);
    expect(config({ order: [{ field: 'a' }, { field: 'a' }], strategy })).toThrow(/once/);
    expect(config({ order: [{ field: 'a', type: 'number', normalization: 'none' }], strategy })).toThrow(
      /string fields only/,
    );
  });

  it('takes range boundaries as typed tuples and routes by them', () => {
    const order = [{ field: 'year', type: 'number', direction: 'desc' }, { field: 'title' }];
    const typed = typedCollection(order, { kind: 'range', boundaries: [[], [2000], [1990, 'm']] });
    const shard = (year: number, title: string) => prepareItem(typed, { pk: 'p', sk: 's', year, title }, () => 0).shard;
    expect([shard(2024, 'a'), shard(2000, 'a'), shard(1999, 'z'), shard(1990, 'n'), shard(1990, 'a')]).toEqual([
      0, 1, 1, 2, 1,
    ]);
    expect(() => typedCollection(order, { kind: 'range', boundaries: [[], ['soon']] })).toThrow(
      /boundary 1 \["soon"\]: field "year" must be a number/,
    );
    expect(() => typedCollection(order, { kind: 'range', boundaries: ['', 'm'] })).toThrow(/tuples/);
    expect(() => typedCollection(order, { kind: 'range', boundaries: [[], [1990], [2000]] })).toThrow(/order/);
  });

  it('refuses items whose typed fields are missing or not values, naming the field', () => {
    const typed = typedCollection([{ field: 'ts', type: 'date' }]);
    const prepare = (item: object) => () => prepareItem(typed, { pk: 'p', sk: 's', ...item }, () => 0);
    expect(prepare({ ts: 'soon' })).toThrow(/field "ts" must be an ISO 8601/);
    expect(prepare({ ts: '2026-13-45' })).toThrow(/field "ts" is not a calendar date/);
    expect(prepare({})).toThrow(/field "ts" is missing/);
    expect(prepare({ ts: '2026-01-01T00:00:00+01:00' })()).toHaveProperty('shard');
  });
});
