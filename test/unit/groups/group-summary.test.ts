import { describe, expect, it } from 'vitest';
import { firstMapOf } from '../../../src/core/collection';
import { EMPTY_GROUP_MAP, type GroupMap, resize, settle } from '../../../src/core/group-map';
import { withGroupMap } from '../../../src/core/group-view';
import { resolveConfig } from '../../../src/config/config';
import { groupingOf, groupMapSummary, LISTED_GROUPS } from '../../../src/http/routes/group-summary';

const [orders, albums] = resolveConfig({
  collections: {
    orders: { group: { field: 'projectId', type: 'number' }, field: 'title', strategy: { kind: 'random', shards: 2 } },
    albums: { field: 'title', strategy: { kind: 'hash', shards: 4 } },
  },
});

/** The map with `group` resized to `shards` and settled there. */
function grown(map: GroupMap, group: string, shards: number): GroupMap {
  return settle(resize(map, group, shards, 2, 0, 0), group, 2, 1);
}

describe('the group map as /collections and /stats show it', () => {
  it('says nothing of an ungrouped collection', () => {
    expect(groupingOf(firstMapOf(albums!))).toBeUndefined();
    expect(groupMapSummary(firstMapOf(albums!))).toBeUndefined();
  });

  it('names the field, its type, the default, and how many groups are off it', () => {
    let map = grown(grown(EMPTY_GROUP_MAP, '7', 8), '3', 1);
    map = resize(map, '12', 4, 2, 5, 1000);
    const collection = withGroupMap(firstMapOf(orders!), map);
    expect(groupingOf(collection)).toEqual({
      field: 'projectId',
      type: 'number',
      defaultShards: 2,
      groupsOffDefault: 3,
      revision: map.revision,
    });
    // Most shards first; a shrunk group last; a grow under way with what it reads and writes.
    expect(groupMapSummary(collection)!.groups).toEqual([
      { group: '7', shards: 8, writeShards: 8, phase: 'stable', changedAt: 1 },
      { group: '12', shards: 4, writeShards: 2, phase: 'growing', changedAt: 5 },
      { group: '3', shards: 1, writeShards: 1, phase: 'stable', changedAt: 1 },
    ]);
  });

  it(`lists the ${LISTED_GROUPS} largest groups of a long map, ties in code point order`, () => {
    let map = EMPTY_GROUP_MAP;
    for (let i = 0; i < 150; i++) map = grown(map, `g${i}`, i === 149 ? 16 : 3);
    const summary = groupMapSummary(withGroupMap(firstMapOf(orders!), map))!;
    expect(summary.groupsOffDefault).toBe(150);
    expect(summary.groups).toHaveLength(LISTED_GROUPS);
    expect(summary.groups[0]).toMatchObject({ group: 'g149', shards: 16 });
    const rest = summary.groups.slice(1).map((g) => g.group);
    expect(rest).toEqual([...rest].sort());
  });
});
