import { ExactNumber } from '../../../src/core/exact-number';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../../src/core/collation';
import {
  canIndexValue,
  indexSortKey,
  indexSortKeyBytes,
  isShardKeyOf,
  nextKey,
  parseShardKey,
  shardKey,
  SEPARATOR,
  shardKeyPrefix,
  valueLowerBound,
  valueOfIndexKey,
  valueUpperBound,
} from '../../../src/core/index-key';
import { parseExactJson } from '../../../src/core/exact-json';
import { malformedRecord } from '../../../src/core/errors';
import { inRange } from '../../../src/core/key-range';
import { text } from '../../support/arbitraries';

/** Throws (a malformed record) when `indexKey` is not one `indexSortKey` builds. */
function decodeIndexKey(indexKey: string): { value: string; primaryKey: (string | ExactNumber)[] } {
  const end = indexKey.indexOf(SEPARATOR);
  let primaryKey: unknown;
  try {
    primaryKey = end < 0 ? undefined : parseExactJson(indexKey.slice(end + 1));
  } catch {}
  if (!Array.isArray(primaryKey) || !primaryKey.every((v) => typeof v === 'string' || v instanceof ExactNumber)) {
    throw malformedRecord(`not an index sort key: ${JSON.stringify(indexKey)}`);
  }
  return { value: indexKey.slice(0, end), primaryKey };
}

const value = text().filter(canIndexValue);
const primaryKey = fc.array(fc.oneof(text(), fc.double({ noNaN: true, noDefaultInfinity: true })), {
  minLength: 1,
  maxLength: 2,
});

describe('index sort keys', () => {
  it('keep numeric primary keys beyond 2^53 apart', () => {
    const [a, b] = ['9007199254740993', '9007199254740992'].map((digits) =>
      indexSortKey('x', [new ExactNumber(digits)]),
    );
    expect(a).not.toBe(b);
    expect(decodeIndexKey(a!).primaryKey).toEqual([new ExactNumber('9007199254740993')]);
  });

  it('take apart into the value and primary key they were built from', () => {
    fc.assert(
      fc.property(value, primaryKey, (v, key) => {
        const indexKey = indexSortKey(v, key);
        // Numbers come back exact, as the digits the key was written with.
        const exact = key.map((part) => (typeof part === 'number' ? new ExactNumber(String(part)) : part));
        expect(decodeIndexKey(indexKey)).toEqual({ value: v, primaryKey: exact });
        expect(valueOfIndexKey(indexKey)).toBe(v);
        expect(indexSortKeyBytes(v, key)).toBe(Buffer.byteLength(indexKey, 'utf8'));
      }),
    );
  });

  it('sort by value first, whatever the tiebreakers', () => {
    fc.assert(
      fc.property(value, value, primaryKey, primaryKey, (a, b, keyA, keyB) => {
        fc.pre(a !== b);
        expect(Math.sign(compareKeys(indexSortKey(a, keyA), indexSortKey(b, keyB)))).toBe(Math.sign(compareKeys(a, b)));
      }),
    );
  });

  it('are bounded exactly by the value bounds, on either side and either inclusiveness', () => {
    fc.assert(
      fc.property(value, value, primaryKey, fc.boolean(), (bound, v, key, inclusive) => {
        const indexKey = indexSortKey(v, key);
        const sign = compareKeys(v, bound);
        expect(inRange(indexKey, { lower: valueLowerBound(bound, inclusive) })).toBe(
          sign > 0 || (inclusive && sign === 0),
        );
        expect(inRange(indexKey, { upper: valueUpperBound(bound, inclusive) })).toBe(
          sign < 0 || (inclusive && sign === 0),
        );
      }),
    );
  });

  it('refuse values holding the separator and strings that are not index keys', () => {
    expect(canIndexValue('a\u0000b')).toBe(false);
    expect(canIndexValue('a\u0001b')).toBe(true);
    expect(() => decodeIndexKey('no separator')).toThrow(/not an index sort key/);
    expect(() => decodeIndexKey('a\u0000{"pk":1}')).toThrow(/not an index sort key/);
    expect(valueOfIndexKey('no separator')).toBe('no separator');
  });
});

describe('nextKey', () => {
  it('is the next string up: above the key, and nothing lies between', () => {
    fc.assert(
      fc.property(text(), text(), (key, other) => {
        const next = nextKey(key);
        expect(compareKeys(next, key)).toBeGreaterThan(0);
        expect(compareKeys(other, key) > 0).toBe(compareKeys(other, next) >= 0);
      }),
    );
  });
});

describe('shard keys', () => {
  it('are <prefix>#<shard> and parse back', () => {
    expect(shardKey('albums', 7)).toBe('albums#7');
    expect(shardKeyPrefix('albums')).toBe('albums#');
    expect(parseShardKey('albums#7')).toEqual({ prefix: 'albums', shard: 7 });
    expect(parseShardKey('a#b#0')).toEqual({ prefix: 'a#b', shard: 0 });
    fc.assert(
      fc.property(
        text().filter((p) => p.length > 0),
        fc.nat(10_000),
        (prefix, shard) => {
          expect(parseShardKey(shardKey(prefix, shard))).toEqual({ prefix, shard });
        },
      ),
    );
  });

  it('refuse strings that are not shard keys', () => {
    for (const key of ['albums', 'albums#', '#3', 'albums#07', 'albums#x', 'albums#-1', 'albums#1.5']) {
      expect(parseShardKey(key), key).toBeUndefined();
    }
  });

  it('belong to the prefix they start with', () => {
    expect(isShardKeyOf('albums#3', 'albums')).toBe(true);
    expect(isShardKeyOf('albums-hash#3', 'albums')).toBe(false);
    expect(isShardKeyOf('albums3', 'albums')).toBe(false);
    expect(isShardKeyOf(3, 'albums')).toBe(false);
    expect(isShardKeyOf(undefined, 'albums')).toBe(false);
  });
});
