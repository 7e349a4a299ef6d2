import { describe, expect, it } from 'vitest';
import { type CollectionSpec, firstMapOf } from '../../../src/core/collection';
import { EMPTY_GROUP_MAP, type GroupMap, resize } from '../../../src/core/group-map';
import { groupShards } from '../../../src/core/group-view';
import { resolveConfig } from '../../../src/config/config';
import { ScanGroups } from '../../../src/reshard/scan-groups';
import type { MapStore } from '../../../src/store/map-store';

const [orders, albums] = resolveConfig({
  collections: {
    orders: { group: 'customerId', field: 'orderDate' },
    albums: { field: 'title', strategy: { kind: 'hash', shards: 4 } },
  },
});

/** A map store holding one group map, counting its reads. */
function storeOf(initial: GroupMap) {
  const store = {
    map: initial,
    reads: 0,
    readGroupMaps: async (collections: readonly CollectionSpec[]) => {
      store.reads++;
      await Promise.resolve();
      return collections.map((c) => (c.group ? store.map : undefined));
    },
  };
  return store;
}

describe('ScanGroups: the group map a scan decides by', () => {
  it('leaves an ungrouped collection as it is and reads nothing', async () => {
    const store = storeOf(EMPTY_GROUP_MAP);
    const view = firstMapOf(albums!);
    const groups = new ScanGroups(store as unknown as MapStore, albums!, 1000);
    expect(await groups.attach(view)).toBe(view);
    expect(store.reads).toBe(0);
  });

  it('attaches the group map, read once per TTL however many items ask at once', async () => {
    let now = 0;
    const whale = resize(EMPTY_GROUP_MAP, 'whale', 4, 1, 0, 0);
    const store = storeOf(whale);
    const groups = new ScanGroups(store as unknown as MapStore, orders!, 1000, () => now);
    const view = firstMapOf(orders!);
    const seen = await Promise.all(Array.from({ length: 20 }, () => groups.attach(view)));
    expect(store.reads).toBe(1);
    // One object for the whole page: the map did not change.
    expect(new Set(seen).size).toBe(1);
    expect(groupShards(seen[0]!, 'whale')).toMatchObject({ shards: 4, writeShards: 1, phase: 'growing' });
    expect(groupShards(seen[0]!, 'other').shards).toBe(1);

    // Within the TTL a resize is not seen yet; past it, the next item reads the map again.
    store.map = resize(EMPTY_GROUP_MAP, 'whale', 8, 1, 0, 0);
    now = 999;
    expect(groupShards(await groups.attach(view), 'whale').shards).toBe(4);
    now = 1000;
    expect(groupShards(await groups.attach(view), 'whale').shards).toBe(8);
    expect(store.reads).toBe(2);
  });

  it('refuses to decide for a grouped collection without its group map', async () => {
    const groups = new ScanGroups({} as MapStore, orders!, 1000);
    await expect(groups.attach(firstMapOf(orders!))).rejects.toThrow(/group map of "orders"/);
  });
});
