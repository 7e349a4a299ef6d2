import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ExactNumber } from '../../../src/core/exact-number';
import { groupPrefix, groupValueFromPath, readGroupValue } from '../../../src/core/group-key';
import {
  EMPTY_GROUP_MAP,
  MAX_LISTED_GROUPS,
  parseGroupMap,
  resize,
  serializeGroupMap,
  settle,
  shardsOf,
} from '../../../src/core/group-map';
import { parseShardKey, SHARD_SEPARATOR, shardKey } from '../../../src/core/index-key';

/** The group a grouped collection's shard key names, or undefined when it is not one of `prefix`'s. */
function groupOfShardKey(prefix: string, key: unknown): string | undefined {
  const start = prefix + SHARD_SEPARATOR;
  if (typeof key !== 'string' || !key.startsWith(start)) return undefined;
  const end = key.lastIndexOf(SHARD_SEPARATOR);
  if (end <= start.length || !/^(?:0|[1-9][0-9]*)$/.test(key.slice(end + 1))) return undefined;
  return key.slice(start.length, end);
}

const STRING = { field: 'customerId', type: 'string' } as const;
const NUMBER = { field: 'projectId', type: 'number' } as const;

describe('group shard keys', () => {
  it('give every (group, shard) its own key, which names that group and shard again', () => {
    const tricky = fc.oneof(
      fc.string({ minLength: 1 }),
      fc.constantFrom('#', 'c#1', 'c#1#0', '1', '0', 'a/b', '😀', '\uE000', 'c#', '##'),
    );
    fc.assert(
      fc.property(fc.uniqueArray(tricky, { minLength: 2, maxLength: 6 }), fc.nat(40), (groups, shard) => {
        const valid = groups.filter((g) => g.isWellFormed());
        const keys = new Set<string>();
        for (const group of valid) {
          for (const s of [0, shard, shard + 1]) {
            const key = shardKey(groupPrefix('orders', readGroupValue(STRING, 'orders', group)), s);
            expect(groupOfShardKey('orders', key)).toBe(group);
            expect(parseShardKey(key)?.shard).toBe(s);
            keys.add(key);
          }
        }
        // Distinct (group, shard) pairs: as many keys as pairs.
        expect(keys.size).toBe(valid.length * new Set([0, shard, shard + 1]).size);
      }),
    );
  });

  it('spell a number group one way, whatever way it was written', () => {
    expect(readGroupValue(NUMBER, 'p', 1.5)).toBe(readGroupValue(NUMBER, 'p', new ExactNumber('1.50')));
    expect(groupValueFromPath(NUMBER, 'p', '1.50')).toBe('1.5');
    expect(groupValueFromPath(NUMBER, 'p', '-3e2')).toBe(readGroupValue(NUMBER, 'p', -300));
    expect(() => groupValueFromPath(NUMBER, 'p', '12abc')).toThrow(/projectId/);
    expect(() => readGroupValue(STRING, 'p', 7)).toThrow(/customerId.*string/);
    expect(() => readGroupValue(STRING, 'p', '')).toThrow(/non-empty/);
    expect(() => readGroupValue(STRING, 'p', '\uD800')).toThrow(/surrogate/);
    expect(() => readGroupValue(STRING, 'p', 'x'.repeat(2100))).toThrow(/bytes/);
  });
});

describe('the group map', () => {
  it('grows by reading first, shrinks by writing first, and forgets a group back on the default', () => {
    const grown = resize(EMPTY_GROUP_MAP, 'w', 8, 1, 1000, 50);
    expect(shardsOf(grown, 'w', 1)).toMatchObject({ shards: 8, writeShards: 1, phase: 'growing' });
    expect(shardsOf(grown, 'other', 1)).toMatchObject({ shards: 1, writeShards: 1, phase: 'stable' });
    expect(() => resize(grown, 'w', 4, 1, 1001, 50)).toThrow(/already growing/);
    const stable = settle(grown, 'w', 1, 1100);
    expect(shardsOf(stable, 'w', 1)).toMatchObject({ shards: 8, writeShards: 8, phase: 'stable' });
    const shrinking = resize(stable, 'w', 1, 1, 1200, 50);
    expect(shardsOf(shrinking, 'w', 1)).toMatchObject({ shards: 8, writeShards: 1, phase: 'shrinking' });
    const back = settle(shrinking, 'w', 1, 1300);
    expect(back.groups.size).toBe(0);
    expect(back.revision).toBe(4);
    expect(parseGroupMap(serializeGroupMap(stable))).toEqual(stable);
  });

  it('refuses a group past its bound rather than drop one', () => {
    let map = EMPTY_GROUP_MAP;
    const groups = new Map(
      Array.from({ length: MAX_LISTED_GROUPS }, (_, i) => [`g${i}`, shardsOf(resize(map, 'x', 2, 1, 0, 0), 'x', 1)]),
    );
    map = { revision: 1, groups };
    expect(() => resize(map, 'one-more', 2, 1, 0, 0)).toThrow(/at most 10000 groups/);
  });

  it('reads a malformed record as a problem, never as a map', () => {
    expect(() => parseGroupMap('{"revision":1,"groups":[["g",0,1,"stable",0,0]]}')).toThrow(/malformed/);
    expect(() => parseGroupMap('{"revision":1,"groups":[["g",2,1,"sideways",0,0]]}')).toThrow(/malformed/);
    expect(() => parseGroupMap(42)).toThrow();
  });
});
