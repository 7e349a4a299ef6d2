import type { MembersRule } from './members';
import type { Normalization } from './normalize';
import type { CollectionOrder } from './order';
import type { ShardStrategy } from './strategies';

export type KeyType = 'S' | 'N';

/**
 * How the autopilot may reshard a collection by the fleet's load (DESIGN §12). Plain data
 * here, so that a collection carries it without core knowing the autopilot; the config
 * file's schema (config/autopilot-config.ts) gives its bounds and defaults.
 */
export interface AutopilotConfig {
  /** A shard over this share of a partition's limits for a whole window gets relief. */
  readonly maxPartitionShare: number;
  /** Reshard only for at least this cut of the largest shard's load (predicted). */
  readonly minGain: number;
  readonly windowMinutes: number;
  readonly cooldownMinutes: number;
  readonly minShards: number;
  readonly maxShards: number;
  /** Items per second the reshard it starts copies (its --rate). */
  readonly rate: number;
}

export interface KeyAttribute {
  readonly name: string;
  readonly type: KeyType;
}

/** One sparse global secondary index a collection's shard map can live in. */
export interface IndexSpec {
  readonly name: string;
  /** Attribute holding the shard partition key (`<prefix>#<shard>`). */
  readonly shardKeyAttribute: string;
  /** Attribute holding the index sort key (value + separator + primary key). */
  readonly indexKeyAttribute: string;
}

/**
 * One sorted index over one kind of item, resolved from the config: where its
 * items live, which field orders them, how that field is normalized and sharded.
 *
 * `strategy`, `index`, `shardKeyAttribute` and `indexKeyAttribute` name one shard
 * map and the index it lives in. From the config they are the first map (in the
 * first index); at run time the service hands out a view of the same collection per
 * shard-map version (see src/service/shard-maps), so listings and writes follow the
 * map stored in the table, not the config.
 */
export interface Collection {
  readonly name: string;
  readonly table: string;
  readonly index: string;
  /** The table's primary key, partition key first. */
  readonly primaryKey: readonly KeyAttribute[];
  /** Attribute holding the shard partition key (`<prefix>#<shard>`) of the index. */
  readonly shardKeyAttribute: string;
  /** Attribute holding the index sort key (value + U+0000 + primary key). */
  readonly indexKeyAttribute: string;
  /** The item field whose value is ordered (the first of `order`'s fields). */
  readonly field: string;
  readonly prefix: string;
  /** How the ordered value is normalized; `none` for typed orders, whose fields normalize themselves. */
  readonly normalization: Normalization;
  /**
   * Typed or compound order (order.ts); absent: the one string `field`, ascending.
   * Either way every layer above sees one ordered string value (see `orderedValueOf`).
   */
  readonly order?: CollectionOrder;
  readonly strategy: ShardStrategy;
  /**
   * The two sparse indexes successive shard maps take turns in (blue/green): a
   * listing reads one, the next map is built in the other. Slot 0 is `index`.
   */
  readonly indexes: readonly [IndexSpec, IndexSpec];
  /** Which table items belong to the collection without shardline having written them. */
  readonly members?: MembersRule;
  /** Reshard by the fleet's load, within these bounds (DESIGN §12); absent: never by itself. */
  readonly autopilot?: AutopilotConfig;
  /** Attribute holding the item's ETag, written by shardline with every write (`_etag` when unset). */
  readonly etagAttribute?: string;
}

/** Where an item's ETag is stored unless the config names another attribute. */
export const DEFAULT_ETAG_ATTRIBUTE = '_etag';

export function etagAttributeOf(collection: Collection): string {
  return collection.etagAttribute ?? DEFAULT_ETAG_ATTRIBUTE;
}

/** The index slot (0 or 1) of a collection's two indexes. */
export type IndexSlot = 0 | 1;

/** The same collection with one shard map in one of its indexes. */
export function collectionView(collection: Collection, strategy: ShardStrategy, slot: IndexSlot): Collection {
  const index = collection.indexes[slot];
  return {
    ...collection,
    strategy,
    index: index.name,
    shardKeyAttribute: index.shardKeyAttribute,
    indexKeyAttribute: index.indexKeyAttribute,
  };
}
