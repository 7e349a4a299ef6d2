import type { RoutedCollection } from './collection';
import { groupOfItem, groupView } from './group-view';
import { isShardKeyOf, parseShardKey } from './index-key';
import type { JsonObject } from './item';
import { matchesMembers } from './members';
import { isPartItem } from './parts';
import { entryAttributes, entryFits, entryIn, fieldKey, heldAs, type ItemCondition } from './reindex';

/** What one stored item needs so that listings show it where its ordered fields say (adoption and followers). */
export type IndexingDecision =
  | { readonly kind: 'not-member' }
  /** A member whose ordered field cannot be indexed (too long, not a string, U+0000 …): reported, skipped. */
  | { readonly kind: 'invalid'; readonly reason: string }
  /** Every write map's entry is already what the ordered field gives. */
  | { readonly kind: 'current' }
  /** Set these attributes, provided the item still holds everything the decision read. */
  | { readonly kind: 'update'; readonly set: JsonObject; readonly when: readonly ItemCondition[] };

/**
 * Decides for `item` (a scanned item, or a stream record's new image) against `writes`, the collection as each
 * map that writes set sees it (the read map first). Who is a member and what it gets, under which conditions:
 * docs/other-writers.md, "What is indexed". Applying an update leaves an item that is `current`.
 */
export function decideIndexing(
  writes: readonly RoutedCollection[],
  item: JsonObject,
  isReserved: (item: JsonObject) => boolean,
  random: () => number,
): IndexingDecision {
  const collection = writes[0];
  // A part of an entity is never a member: its root is (core/parts.ts).
  if (!collection || isReserved(item) || isPartItem(item)) return { kind: 'not-member' };
  const owners = collection.indexes.map((index) => item[index.shardKeyAttribute]).filter((key) => key !== undefined);
  // A grouped collection's keys are `<prefix>#<group>#<shard>`: any group's is the collection's.
  const ours = (key: unknown) =>
    collection.group
      ? isShardKeyOf(key, collection.prefix)
      : typeof key === 'string' && parseShardKey(key)?.prefix === collection.prefix;
  // An entry of another collection sharing the index: that item is the other collection's.
  if (owners.some((key) => !ours(key))) return { kind: 'not-member' };
  const listed = owners.length > 0;
  if (!listed && !(collection.members && matchesMembers(collection.members, item))) return { kind: 'not-member' };

  const key = fieldKey(collection, item);
  if (key.kind === 'invalid') return key;
  const set: JsonObject = {};
  const when: ItemCondition[] = [...key.held];
  // In a grouped collection, the entry the item's group gives (another group's entry is stale).
  const group = collection.group ? groupOfItem(collection, item) : undefined;
  for (const map of writes) {
    const view = group === undefined ? map : groupView(map, group);
    if (entryFits(view, entryIn(view, item), key.indexKey)) continue;
    Object.assign(set, entryAttributes(view, key.indexKey, random));
    for (const attribute of [view.map.index.shardKeyAttribute, view.map.index.indexKeyAttribute]) {
      when.push(heldAs(attribute, item[attribute]));
    }
  }
  return Object.keys(set).length === 0 ? { kind: 'current' } : { kind: 'update', set, when };
}
