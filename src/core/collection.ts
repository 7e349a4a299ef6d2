import type { GroupSpec } from './group-key';
import type { GroupMap } from './group-map';
import type { MembersRule } from './members';
import type { Normalization } from './normalize';
import type { CollectionOrder } from './order';
import { sameStrategy, type ShardStrategy } from './strategies';

export type KeyType = 'S' | 'N';

/** How the autopilot may reshard a collection (docs/autopilot.md); bounds and defaults: config/autopilot-config.ts. */
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

/** A sparse GSI a shard map can live in. */
export interface IndexSpec {
  readonly name: string;
  readonly shardKeyAttribute: string;
  readonly indexKeyAttribute: string;
}

/** One sorted index over one kind of item, as the config says it; the stored shard map routes (`RoutedCollection`). */
export interface CollectionSpec {
  readonly name: string;
  readonly table: string;
  /** Partition key first. */
  readonly primaryKey: readonly KeyAttribute[];
  /** The item field whose value is ordered (the first of `order`'s fields). */
  readonly field: string;
  readonly prefix: string;
  /** `none` for typed orders, whose fields normalize themselves. */
  readonly normalization: Normalization;
  /** Typed or compound order (order.ts); absent: the one string `field`, ascending. */
  readonly order?: CollectionOrder;
  /** The strategy the config names: a new table's first shard map (v1), and nothing after. */
  readonly initialStrategy: ShardStrategy;
  /** Successive shard maps take turns in them (blue/green): listings read one, the next map is built in the other. */
  readonly indexes: readonly [IndexSpec, IndexSpec];
  readonly members?: MembersRule;
  /** Reshard by the fleet's load, within these bounds (docs/autopilot.md); absent: never by itself. */
  readonly autopilot?: AutopilotConfig;
  /** Written by shardline with every write (`_etag` when unset). */
  readonly etagAttribute?: string;
  /** Entities in parts (core/parts.ts): part name → its top-level attributes; absent: one item an entity. */
  readonly parts?: Readonly<Record<string, readonly string[]>>;
  /** Grouped (docs/groups.md): an index per value of this field, each on its own shard keys. */
  readonly group?: GroupSpec;
}

export type IndexSlot = 0 | 1;

/** One stored, immutable shard map (docs/resharding.md): a strategy in one of the collection's two indexes. */
export interface ShardMap {
  readonly version: number;
  readonly slot: IndexSlot;
  readonly strategy: ShardStrategy;
  readonly index: IndexSpec;
}

/** A collection with one shard map: what routes, lists, reshards, follows and reports load. */
export interface RoutedCollection extends CollectionSpec {
  readonly map: ShardMap;
  /** A grouped collection's groups off the default (core/group-map.ts), as the request routes by them. */
  readonly groups?: GroupMap;
}

export function routedBy(
  spec: CollectionSpec,
  version: number,
  strategy: ShardStrategy,
  slot: IndexSlot,
): RoutedCollection {
  const { map: _map, ...config } = spec as RoutedCollection;
  return { ...config, map: { version, slot, strategy, index: spec.indexes[slot] } };
}

/** A new table's first map: the config's strategy, version 1 in slot 0 (what bootstrap writes). */
export function firstMapOf(spec: CollectionSpec): RoutedCollection {
  return routedBy(spec, 1, spec.initialStrategy, 0);
}

/** What a router says at start when the stored map `version` (`stored`) is not the config's strategy. */
export function configDriftNote(spec: CollectionSpec, version: number, stored: ShardStrategy): string | undefined {
  if (sameStrategy(stored, spec.initialStrategy)) return undefined;
  const configured = spec.initialStrategy;
  return (
    `shardline: collection "${spec.name}" routes by its stored shard map v${version} ` +
    `(${stored.kind}, ${stored.shardCount} shards); the config's strategy ` +
    `(${configured.kind}, ${configured.shardCount} shards) only makes a new table's first map. ` +
    'Maps change with npm run reshard; update the config to match if you like'
  );
}

export const DEFAULT_ETAG_ATTRIBUTE = '_etag';

export function etagAttributeOf(collection: CollectionSpec): string {
  return collection.etagAttribute ?? DEFAULT_ETAG_ATTRIBUTE;
}

/**
 * The attribute DynamoDB's TTL reads (epoch seconds) in tables shardline creates: its load records expire by it,
 * so an item carrying it would be deleted by DynamoDB. Like the ETag, no write through the API may set it.
 */
export const TTL_ATTRIBUTE = '_ttl';
