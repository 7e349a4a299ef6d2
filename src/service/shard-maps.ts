import type { CollectionSpec, IndexSlot, RoutedCollection } from '../core/collection';
import { configDriftNote, routedBy } from '../core/collection';
import { ShardlineError } from '../core/errors';
import { initialPointer, type MapPointer, type MapRef } from '../core/shard-map';
import { strategyFromConfig, type ShardStrategy } from '../core/strategies';
import type { GroupMapStore, MapStore } from '../store/map-store';
import type { GroupMap } from '../core/group-map';
import { withGroupMap } from '../core/group-view';
import type { MapSnapshot, MapSource } from './map-source';
import { TableRecreation } from './table-recreation';
import type { CallContext } from '../store/retry';

/** How long a router may route with a pointer it could not refresh, in TTLs (docs/resharding.md). */
export const STALE_AFTER_TTLS = 3;

export interface ShardMapsOptions {
  /** How old a cached pointer may get before a request refreshes it. */
  readonly ttlMs: number;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
  /** Told which map version each collection is read by, whenever that is (re)learned. */
  readonly onReadVersion?: (collection: string, version: number) => void;
  /** Called (once at a time, at most every 5 s) when a table holding the maps is gone, to create it and its maps. */
  readonly onTableMissing?: () => Promise<void>;
}

interface Cached {
  readonly pointers: Map<string, MapPointer>;
  /** Grouped collections' group maps, read with the pointers. */
  readonly groups: Map<string, GroupMap>;
  /** When the read that produced them was sent: their age counts from there. */
  readonly readAt: number;
}

/**
 * The routers' view of the shard maps: every collection's pointer, cached for at most `ttlMs`
 * (all refreshed by one read), and the immutable versions it names. A router that cannot refresh
 * keeps routing by what it has for up to 3 × TTL, then answers 503 `map_stale` (docs/resharding.md).
 * Only values are shared between requests, never a promise: on workerd a request may not wait on
 * I/O another request started (that request's end cancels it and the waiter hangs).
 */
export class ShardMaps implements MapSource {
  private cached: Cached | undefined;
  private readonly recreation: TableRecreation;
  private readonly strategies = new Map<string, ShardStrategy>();
  private readonly views = new Map<string, RoutedCollection>();
  private readonly snapshots = new Map<string, MapSnapshot & { readonly groups?: GroupMap | undefined }>();
  /** Collections whose stored map could not be read, logged once each. */
  private readonly unusable = new Set<string>();
  private readonly now: () => number;

  constructor(
    private readonly mapStore: MapStore,
    private readonly collections: readonly CollectionSpec[],
    private readonly options: ShardMapsOptions,
  ) {
    this.now = options.now ?? Date.now;
    const tables = [...new Set(collections.map((c) => c.table))];
    this.recreation = new TableRecreation(tables, options.onTableMissing, this.now, options.log);
  }

  /**
   * Writes each collection's first map (its config strategy, version 1 in the first index)
   * where the table holds none. Safe from many instances at once: the first writer wins, the
   * others adopt what it wrote. A config strategy that differs from the stored read map is
   * reported, never applied (`npm run reshard` changes maps).
   */
  async initialize(context: CallContext): Promise<void> {
    const { pointers, groups, readAt } = await this.read(context);
    const known = new Map<string, MapPointer>();
    for (const collection of this.collections) {
      try {
        await this.initializeOne(collection, pointers.get(collection.name), known, context);
      } catch (error) {
        // A collection whose stored map cannot be read answers 503; the others serve, and the router starts.
        if (!(error instanceof ShardlineError && error.code === 'unavailable')) throw error;
        if (!this.unusable.has(collection.name)) this.options.log?.(`shardline: ${error.message}`);
        this.unusable.add(collection.name);
      }
    }
    // What was just read (or written) is as fresh as a refresh: the first requests need not read again.
    this.cached = { pointers: known, groups, readAt };
  }

  private async initializeOne(
    collection: CollectionSpec,
    read: MapPointer | undefined,
    known: Map<string, MapPointer>,
    context: CallContext,
  ): Promise<void> {
    let pointer = read;
    if (!pointer) {
      const createdAt = new Date(this.now()).toISOString();
      const first = { version: 1, strategy: collection.initialStrategy.config, createdAt };
      await this.mapStore.createVersion(collection, first, context);
      const fresh = initialPointer(this.now());
      pointer = (await this.mapStore.createPointer(collection, fresh, context))
        ? fresh
        : (await this.mapStore.readPointers([collection], context))[0];
    }
    // There but unreadable (malformed, logged by the store): never overwritten, never routed by.
    if (!pointer) throw unusable(collection, 'its shard-map pointer cannot be read');
    known.set(collection.name, pointer);
    this.options.onReadVersion?.(collection.name, pointer.read.version);
    const stored = await this.strategyOf(collection, pointer.read.version, context);
    const drift = configDriftNote(collection, pointer.read.version, stored);
    if (drift) this.options.log?.(drift);
  }

  /** The snapshot one request routes by; refreshes the cached pointers when older than the TTL. */
  async snapshot(collection: CollectionSpec, context: CallContext): Promise<MapSnapshot> {
    return this.snapshotOf(collection, await this.fresh(context), context);
  }

  /** The snapshot as the table holds it now, whatever the TTL: what a tool (a reshard, the autopilot) acts on. */
  async current(collection: CollectionSpec, context: CallContext): Promise<MapSnapshot> {
    return this.snapshotOf(collection, await this.load(context), context);
  }

  private async snapshotOf(collection: CollectionSpec, cached: Cached, context: CallContext): Promise<MapSnapshot> {
    let pointer = cached.pointers.get(collection.name);
    if (!pointer) {
      // A table whose maps were never written (or were removed): write the first one now.
      await this.initialize(context);
      pointer = (await this.fresh(context)).pointers.get(collection.name);
      if (!pointer) throw new ShardlineError('unavailable', `collection "${collection.name}" has no shard map`);
    }
    const groups = cached.groups.get(collection.name);
    const known = this.snapshots.get(collection.name);
    // The same pointer (and group map) as last time, the common case: the same snapshot, built once.
    if (known?.pointer === pointer && known.groups === groups) return known;
    const read = await this.view(collection, pointer.read, context);
    const isRead = (ref: MapRef) => Number(ref.version === pointer.read.version);
    const ordered = [...pointer.writes].sort((a, b) => isRead(b) - isRead(a));
    const writes = await Promise.all(ordered.map((ref) => this.view(collection, ref, context)));
    const target = pointer.target && (await this.view(collection, pointer.target, context));
    const grouped = (view: RoutedCollection) => withGroupMap(view, groups);
    const snapshot = {
      pointer,
      read: grouped(read),
      writes: writes.map(grouped),
      ...(target && { target: grouped(target) }),
      groups,
    };
    this.snapshots.set(collection.name, snapshot);
    this.options.onReadVersion?.(collection.name, pointer.read.version);
    return snapshot;
  }

  /** Shards of the map `collection` is read by, as last learned here (known from `initialize` on). */
  readShardCount(collection: string): number | undefined {
    const pointer = this.cached?.pointers.get(collection);
    return pointer && this.strategies.get(`${collection}/${pointer.read.version}`)?.shardCount;
  }

  /** Every collection's current pointer, read now (for status pages and tools). */
  async pointers(context: CallContext): Promise<Map<string, MapPointer>> {
    return (await this.load(context)).pointers;
  }

  private async fresh(context: CallContext): Promise<Cached> {
    const cached = this.cached;
    const age = cached ? this.now() - cached.readAt : Number.POSITIVE_INFINITY;
    if (cached && age <= this.options.ttlMs) return cached;
    try {
      return await this.load(context);
    } catch (error) {
      if (cached && age <= STALE_AFTER_TTLS * this.options.ttlMs) {
        this.options.log?.(
          `shardline: could not refresh the shard maps (${(error as Error).message}); using ones ${age} ms old`,
        );
        return cached;
      }
      if (error instanceof ShardlineError && error.code === 'timeout') throw error;
      if (error instanceof ShardlineError && error.code === 'table_missing') throw this.recreation.missing();
      this.options.log?.(`shardline: could not read the shard maps: ${(error as Error).message}`);
      throw new ShardlineError('map_stale', 'the shard maps could not be refreshed; try again shortly', {
        retryable: true,
      });
    }
  }

  /**
   * Every collection's pointer and every grouped one's group map, in one read where the store keeps
   * group maps (a test's store may not: then no group map, every group on the default).
   */
  private async read(context: CallContext): Promise<Cached> {
    const readAt = this.now();
    const mapStore = this.mapStore as MapStore & Partial<GroupMapStore>;
    const read =
      this.collections.some((collection) => collection.group) && mapStore.readRouting
        ? await mapStore.readRouting(this.collections, context)
        : { pointers: await mapStore.readPointers(this.collections, context), groups: [] };
    const byName = <T>(values: readonly (T | undefined)[]) =>
      new Map(this.collections.flatMap(({ name }, i) => (values[i] ? [[name, values[i]] as const] : [])));
    return { pointers: byName(read.pointers), groups: byName(read.groups), readAt };
  }

  /** A refresh: `read` into the cache (initialize fills it only once every collection has its map). */
  private async load(context: CallContext): Promise<Cached> {
    const loaded = await this.read(context);
    // Two refreshes may cross: keep the one read later.
    if (!this.cached || this.cached.readAt <= loaded.readAt) this.cached = loaded;
    return loaded;
  }

  /** The collection as one map sees it; one object per (version, slot), so per-map state can key on it. */
  private view(collection: CollectionSpec, ref: MapRef, context: CallContext): Promise<RoutedCollection> {
    return kept(this.views, `${collection.name}/${ref.version}/${ref.slot}`, async () => {
      const strategy = await this.strategyOf(collection, ref.version, context);
      return routedBy(collection, ref.version, strategy, ref.slot as IndexSlot);
    });
  }

  /** A version's strategy; versions never change, so each is kept once read. */
  private strategyOf(collection: CollectionSpec, version: number, context: CallContext): Promise<ShardStrategy> {
    return kept(this.strategies, `${collection.name}/${version}`, async () => {
      const stored = await this.mapStore.readVersion(collection, version, context);
      // Never another version instead: its items sit where this one put them, and listings would miss them.
      if (!stored) throw unusable(collection, `its shard map v${version} is missing from the table or malformed`);
      return strategyFromConfig(stored.strategy);
    });
  }
}

/** The value `cache` keeps for `key`, made by `make` the first time (a value, never a promise: see ShardMaps). */
async function kept<T>(cache: Map<string, T>, key: string, make: () => Promise<T>): Promise<T> {
  if (!cache.has(key)) cache.set(key, await make());
  return cache.get(key)!;
}

/** A 503 for a collection whose stored map cannot be routed by: the router serves the others. */
function unusable(collection: CollectionSpec, why: string): ShardlineError {
  return new ShardlineError('unavailable', `collection "${collection.name}" cannot be served: ${why}`);
}
