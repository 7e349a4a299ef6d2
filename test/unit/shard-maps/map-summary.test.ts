import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { routedBy } from '../../../src/core/collection';
import { strategyFromConfig } from '../../../src/core/strategies';
import { describeMaps } from '../../../src/runtime/node/map-summary';
import type { MapSnapshot } from '../../../src/service/map-source';

const collections = resolveConfig({
  collections: {
    albums: { field: 'title', strategy: { kind: 'range', boundaries: ['', 'm'] } },
    'albums-hash': { field: 'title', strategy: { kind: 'hash', shards: 21 } },
  },
});

/** The snapshot a collection's maps give: read by `version` with `strategy`, maybe migrating. */
function snapshotOf(name: string, version: number, strategy: object, migration?: object): MapSnapshot {
  const collection = collections.find((c) => c.name === name)!;
  const read = routedBy(collection, version, strategyFromConfig(strategy as never), 0);
  const pointer = {
    revision: 1,
    phase: migration ? 'backfill' : 'stable',
    read: { version, slot: 0 },
    writes: [{ version, slot: 0 }],
    changedAt: 0,
    ...(migration && { target: { version: version + 1, slot: 1 } }),
  };
  return {
    pointer,
    read,
    writes: [read],
    ...(migration && { target: routedBy(collection, version + 1, strategyFromConfig(migration as never), 1) }),
  } as unknown as MapSnapshot;
}

describe('the startup summary of the shard maps in force', () => {
  it('names each map by version, strategy, shards, a migration under way, and where the config differs', async () => {
    const snapshots = new Map([
      ['albums', snapshotOf('albums', 1, { kind: 'range', boundaries: ['', 'm'] })],
      [
        'albums-hash',
        snapshotOf('albums-hash', 3, { kind: 'hash', shards: 5 }, { kind: 'range', boundaries: ['', 'g', 'p'] }),
      ],
    ]);
    const text = await describeMaps({
      collections,
      maps: { snapshot: async (collection: { name: string }) => snapshots.get(collection.name)! } as never,
    });
    expect(text.split('\n')).toEqual([
      '  albums: v1 (range, 2 shards)',
      '  albums-hash: v3 (hash, 5 shards); backfill to v4 (range, 3 shards) — the config says hash, 21 shards',
    ]);
  });
});
