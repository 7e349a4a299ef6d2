import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { ExactNumber } from '../../../src/core/exact-number';
import { isCheckpointItem } from '../../../src/store/checkpoints';
import { mapKey } from '../../../src/store/map-items';
import { EXACT_NUMBERS } from '../../../src/store/client';
import { isReservedItem, reservedPartition } from '../../../src/store/reserved-keys';

const collectionKeyedBy = (type: 'S' | 'N', sortKey: null | { name: string; type: 'S' | 'N' }) =>
  resolveConfig({
    table: { partitionKey: { name: 'id', type }, sortKey },
    collections: { books: { field: 'title', strategy: { kind: 'hash', shards: 2 } } },
  })[0]!;

describe("shardline's own items in a numeric-keyed table", () => {
  const numeric = collectionKeyedBy('N', null);

  it('sit at reserved 15-digit numbers, one per name, below every id an app uses', () => {
    const pointer = reservedPartition(numeric, 'map#books#pointer') as NumberValue;
    const version = reservedPartition(numeric, 'map#books#v1') as NumberValue;
    expect(pointer).toBeInstanceOf(NumberValue);
    expect(pointer.value).toMatch(/^-9\.999\d{11}E\+125$/);
    expect(reservedPartition(numeric, 'map#books#pointer')).toEqual(pointer);
    expect(version.value).not.toBe(pointer.value);
    // Fifteen significant digits: exactly a double, so a key read back as a number is the same key.
    expect(String(Number(pointer.value))).toBe(pointer.value.replace('E+', 'e+'));
    expect(mapKey(numeric, 'pointer')).toEqual({ id: pointer });
  });

  it('are told from an app item however the number arrives, and are never members', () => {
    const text = (reservedPartition(numeric, 'map#books#pointer') as NumberValue).value;
    for (const id of [Number(text), new ExactNumber(text), new NumberValue(text)]) {
      expect(isReservedItem(numeric, { id })).toBe(true);
      expect(isCheckpointItem(numeric, { id })).toBe(true);
    }
    for (const id of [0, -1e125, new ExactNumber('123456789012345678901234567890'), Number.MIN_SAFE_INTEGER]) {
      expect(isReservedItem(numeric, { id })).toBe(false);
    }
  });

  it('go out again from UnprocessedKeys as the same exact number, read as every door reads numbers', () => {
    const text = (reservedPartition(numeric, 'follow#*#s#shard-1') as NumberValue).value;
    const returned = unmarshall({ id: { N: text }, sk: { S: 'checkpoint' } }, EXACT_NUMBERS);
    expect(returned.id).toEqual(new NumberValue(text));
    // A looser client reads the key as a double past 2^53, which it then refuses to write.
    expect(marshall(returned)).toEqual({ id: { N: text }, sk: { S: 'checkpoint' } });
  });

  it('keep the string prefix in a string-keyed table, with the sort key naming the item', () => {
    const strings = collectionKeyedBy('S', { name: 'n', type: 'N' });
    expect(mapKey(strings, 3)).toEqual({ id: '__shardline#map#books', n: 3 });
    expect(isReservedItem(strings, { id: '__shardline#map#books' })).toBe(true);
    expect(isCheckpointItem(strings, { id: '__shardline#map#books' })).toBe(false);
    expect(isCheckpointItem(strings, { id: '__shardline#follow#*#s#1' })).toBe(true);
  });
});
