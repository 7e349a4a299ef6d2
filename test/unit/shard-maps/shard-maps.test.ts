import { firstMapOf } from '../../../src/core/collection';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import type { RoutedCollection } from '../../../src/core/collection';
import { ShardlineError } from '../../../src/core/errors';
import type { MapPointer } from '../../../src/core/shard-map';
import { ShardMaps } from '../../../src/service/shard-maps';
import type { MapStore, StoredVersion } from '../../../src/store/map-store';

/** Pointers and versions in memory, with the store's conditional semantics, and a switch to fail reads. */
class MemoryMapStore implements MapStore {
  readonly pointers = new Map<string, MapPointer>();
  readonly versions = new Map<string, StoredVersion>();
  reads = 0;
  failing = false;

  async readPointers(collections: readonly RoutedCollection[]) {
    this.reads++;
    if (this.failing) throw new Error('the table does not answer');
    return collections.map((c) => this.pointers.get(c.name));
  }
  async readVersion(collection: RoutedCollection, version: number) {
    return this.versions.get(`${collection.name}/${version}`);
  }
  async createVersion(collection: RoutedCollection, version: StoredVersion) {
    const key = `${collection.name}/${version.version}`;
    if (this.versions.has(key)) return false;
    this.versions.set(key, version);
    return true;
  }
  async createPointer(collection: RoutedCollection, pointer: MapPointer) {
    if (this.pointers.has(collection.name)) return false;
    this.pointers.set(collection.name, pointer);
    return true;
  }
  async replacePointer(collection: RoutedCollection, expected: number, pointer: MapPointer) {
    if (this.pointers.get(collection.name)?.revision !== expected) return false;
    this.pointers.set(collection.name, pointer);
    return true;
  }
}

const collections = (shards: number) =>
  resolveConfig({ collections: { albums: { field: 'title', strategy: { kind: 'hash', shards } } } }).map(firstMapOf);

describe('shard maps as routers see them', () => {
  it('writes the config as version 1 once, however many instances start; then the table rules', async () => {
    const store = new MemoryMapStore();
    const logs: string[] = [];
    const [first, second] = [collections(21), collections(21)].map(
      (config) => new ShardMaps(store, config, { ttlMs: 1000, log: (line) => logs.push(line) }),
    );
    await Promise.all([first!.initialize({}), second!.initialize({})]);
    expect([...store.versions.keys()]).toEqual(['albums/1']);
    expect(store.pointers.get('albums')).toMatchObject({ phase: 'stable', read: { version: 1, slot: 0 } });

    // A restart with another strategy in the config keeps routing by the table's map, and says so.
    const changed = collections(32);
    const restarted = new ShardMaps(store, changed, { ttlMs: 1000, log: (line) => logs.push(line) });
    expect(restarted.readShardCount('albums')).toBeUndefined();
    await restarted.initialize({});
    // What the Node server's admission weighs a listing by, known before the first request: the table's map.
    expect(restarted.readShardCount('albums')).toBe(21);
    const snapshot = await restarted.snapshot(changed[0]!, {});
    expect(snapshot.read.map.strategy.shardCount).toBe(21);
    expect(logs.join('\n')).toMatch(/routes by its stored shard map v1 .*npm run reshard/);
  });

  it('reads the pointer at most once a TTL, routes by an old one up to 3 TTLs, then map_stale', async () => {
    const store = new MemoryMapStore();
    let now = 0;
    const config = collections(4);
    const maps = new ShardMaps(store, config, { ttlMs: 100, now: () => now, log: () => {} });
    await maps.initialize({});
    const reads = store.reads;
    await maps.snapshot(config[0]!, {});
    now = 100;
    await maps.snapshot(config[0]!, {});
    expect(store.reads).toBe(reads); // still within the TTL: no read
    now = 101;
    await maps.snapshot(config[0]!, {});
    expect(store.reads).toBe(reads + 1);

    store.failing = true;
    now = 101 + 300; // 3 TTLs after the last successful read: still served
    expect((await maps.snapshot(config[0]!, {})).read.map.strategy.shardCount).toBe(4);
    now = 101 + 301;
    const refused = await maps.snapshot(config[0]!, {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShardlineError);
    expect(refused).toMatchObject({ code: 'map_stale' });

    store.failing = false;
    expect((await maps.snapshot(config[0]!, {})).pointer.phase).toBe('stable');
  });

  it('sees a change of maps within one TTL: writes set both maps, reads follow the pointer', async () => {
    const store = new MemoryMapStore();
    let now = 0;
    const config = collections(4);
    const maps = new ShardMaps(store, config, { ttlMs: 100, now: () => now });
    await maps.initialize({});
    await store.createVersion(config[0]!, { version: 2, strategy: { kind: 'hash', shards: 8 }, createdAt: '' });
    const pointer = store.pointers.get('albums')!;
    const target = { version: 2, slot: 1 as const };
    store.pointers.set('albums', {
      ...pointer,
      revision: pointer.revision + 1,
      phase: 'switch-reads',
      read: target,
      writes: [pointer.read, target],
      source: pointer.read,
      target,
    });
    expect((await maps.snapshot(config[0]!, {})).pointer.phase).toBe('stable'); // cached
    now = 101;
    const snapshot = await maps.snapshot(config[0]!, {});
    expect(snapshot.read.map).toMatchObject({
      version: 2,
      slot: 1,
      index: { name: 'GSI2', shardKeyAttribute: 'gsi2pk' },
    });
    expect(snapshot.read.map.strategy.shardCount).toBe(8);
    expect(maps.readShardCount('albums')).toBe(8);
    expect(snapshot.writes.map((view) => [view.map.index.name, view.map.strategy.shardCount])).toEqual([
      ['GSI2', 8],
      ['GSI1', 4],
    ]);
    // One view object per map version: per-map state (read memory) can key on it.
    expect((await maps.snapshot(config[0]!, {})).read).toBe(snapshot.read);
  });

  it('never makes a request wait on a read another request started (workerd cancels it with its request)', async () => {
    const store = new MemoryMapStore();
    let now = 0;
    const config = collections(4);
    const maps = new ShardMaps(store, config, { ttlMs: 100, now: () => now });
    await maps.initialize({});
    now = 101;
    // The first request's read never answers, as when workerd cancels the I/O of a request that ended.
    const answered = store.readPointers.bind(store);
    store.readPointers = () => new Promise(() => {});
    const abandoned = maps.snapshot(config[0]!, {});
    store.readPointers = answered;
    const reads = store.reads;
    const second = await maps.snapshot(config[0]!, {});
    expect(second.pointer.phase).toBe('stable');
    expect(store.reads).toBe(reads + 1); // it read for itself
    void abandoned;
  });
});
