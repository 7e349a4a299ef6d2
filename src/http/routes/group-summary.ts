import { compareKeys } from '../../core/collation';
import type { RoutedCollection } from '../../core/collection';
import { EMPTY_GROUP_MAP } from '../../core/group-map';

/** Groups a summary lists at most: the map may hold 10,000, a page or a chart shows the largest. */
export const LISTED_GROUPS = 100;

/** How a grouped collection is grouped and how many groups are off its default; undefined when ungrouped. */
export function groupingOf(collection: RoutedCollection) {
  const spec = collection.group;
  if (!spec) return undefined;
  const map = collection.groups ?? EMPTY_GROUP_MAP;
  return {
    field: spec.field,
    type: spec.type,
    defaultShards: collection.map.strategy.shardCount,
    groupsOffDefault: map.groups.size,
    revision: map.revision,
  };
}

/** The grouping with the groups off the default, most shards first (grown for their load: the hottest it knows). */
export function groupMapSummary(collection: RoutedCollection) {
  const grouping = groupingOf(collection);
  if (!grouping) return undefined;
  const listed = [...(collection.groups ?? EMPTY_GROUP_MAP).groups]
    .map(([group, { shards, writeShards, phase, changedAt }]) => ({ group, shards, writeShards, phase, changedAt }))
    .sort((a, b) => b.shards - a.shards || b.writeShards - a.writeShards || compareKeys(a.group, b.group))
    .slice(0, LISTED_GROUPS);
  return { ...grouping, groups: listed };
}
