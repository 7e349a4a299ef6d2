import type { RoutedCollection } from './collection';
import { ShardlineError } from './errors';
import { groupPrefix, readGroupValue } from './group-key';
import { EMPTY_GROUP_MAP, type GroupMap, type GroupShards, shardsOf } from './group-map';
import type { JsonObject } from './item';
import { randomStrategy } from './strategies/random';
import type { ShardStrategy } from './strategies/strategy';

/** The collection with its group map attached (an ungrouped one as it is). */
export function withGroupMap(collection: RoutedCollection, groups: GroupMap | undefined): RoutedCollection {
  return collection.group ? { ...collection, groups: groups ?? EMPTY_GROUP_MAP } : collection;
}

/** The item's group, read and checked (a 400 naming the group field when missing or of the wrong type). */
export function groupOfItem(collection: RoutedCollection, item: JsonObject): string {
  const spec = collection.group!;
  if (!Object.hasOwn(item, spec.field)) {
    throw new ShardlineError('invalid_item', `the item has no group attribute "${spec.field}"`, {
      attribute: spec.field,
    });
  }
  return readGroupValue(spec, collection.prefix, item[spec.field]);
}

/** The shards of `group` in a collection routed with its group map. */
export function groupShards(collection: RoutedCollection, group: string): GroupShards {
  return shardsOf(collection.groups ?? EMPTY_GROUP_MAP, group, collection.map.strategy.shardCount);
}

/**
 * One group as a collection of its own, under `<prefix>#<group>#`, read over all its shards, written to a random
 * one of its write shards: every listing, write and index decision works on this view unchanged.
 */
export function groupView(collection: RoutedCollection, group: string): RoutedCollection {
  const { groups: _groups, group: _spec, ...rest } = collection;
  const strategy = strategyOf(groupShards(collection, group));
  return { ...rest, prefix: groupPrefix(collection.prefix, group), map: { ...collection.map, strategy } };
}

/** Reads every shard the group may hold; writes spread over its write shards (random: nothing ever moves). */
function strategyOf({ shards, writeShards }: GroupShards): ShardStrategy {
  const key = shards * 65_536 + writeShards;
  let strategy = strategies.get(key);
  if (!strategy) {
    const read = randomStrategy(shards);
    strategy =
      writeShards === shards
        ? read
        : { ...read, shardForWrite: (_value, random) => Math.floor(random() * writeShards) };
    strategies.set(key, strategy);
  }
  return strategy;
}

/** One strategy object per (shards, write shards): a view is built per request, its strategy is not. */
const strategies = new Map<number, ShardStrategy>();
