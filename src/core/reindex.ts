import { isPartItem } from './parts';
import type { RoutedCollection } from './collection';
import { parseShardKey, shardKey, valueOfIndexKey } from './index-key';
import { managedAttributes, prepareItem, type JsonObject } from './item';
import { matchesMembers } from './members';
import { orderOf } from './order';

// What the migration scans decide about one stored item, purely from the item and the collection's
// views (the collection as one shard map sees it); the store carries it out with conditional updates.

export interface IndexEntry {
  readonly shardKey: string;
  readonly indexKey: string;
}

/** The item's entry in `view`'s index, when it has one of this collection. */
export function entryIn(view: RoutedCollection, item: JsonObject): IndexEntry | undefined {
  const shard = item[view.map.index.shardKeyAttribute];
  const indexKey = item[view.map.index.indexKeyAttribute];
  if (typeof shard !== 'string' || typeof indexKey !== 'string' || parseShardKey(shard)?.prefix !== view.prefix)
    return undefined;
  return { shardKey: shard, indexKey };
}

/** Whether an entry is one `view`'s map could have written for this index key. */
export function entryFits(view: RoutedCollection, entry: IndexEntry | undefined, indexKey: string): boolean {
  if (!entry || entry.indexKey !== indexKey) return false;
  const shard = parseShardKey(entry.shardKey)?.shard;
  return shard !== undefined && view.map.strategy.shardsForValue(valueOfIndexKey(indexKey)).includes(shard);
}

/** Something the item must still hold when an update lands (else the update changes nothing). */
export type ItemCondition =
  | { readonly kind: 'equals'; readonly attribute: string; readonly value: unknown }
  | { readonly kind: 'absent'; readonly attribute: string };

/** The condition that `attribute` still holds `value` as read (or is still absent). */
export function heldAs(attribute: string, value: unknown): ItemCondition {
  return value === undefined ? { kind: 'absent', attribute } : { kind: 'equals', attribute, value };
}

/** A member's index sort key: the one it is listed by, or the one its ordered fields give. */
export type MemberKey =
  | { readonly kind: 'indexed'; readonly indexKey: string }
  | {
      readonly kind: 'adoptable';
      readonly indexKey: string;
      /** Every order field as read, which the key was computed from: an update must find them unchanged. */
      readonly held: readonly ItemCondition[];
    }
  | { readonly kind: 'invalid'; readonly reason: string }
  | { readonly kind: 'not-member' };

/** A listed item keeps its key, so a cursor means the same in both indexes; a `members` match gets `fieldKey`'s. */
export function memberKey(
  listed: RoutedCollection,
  item: JsonObject,
  isReserved: (item: JsonObject) => boolean,
): MemberKey {
  const entry = entryIn(listed, item);
  if (entry) return { kind: 'indexed', indexKey: entry.indexKey };
  // A part of an entity is never a member: its root is (core/parts.ts).
  if (!listed.members || isReserved(item) || isPartItem(item) || !matchesMembers(listed.members, item)) {
    return { kind: 'not-member' };
  }
  return fieldKey(listed, item);
}

/** The index sort key `item`'s ordered fields give, checked as a write is: what the API refuses is not indexed. */
export function fieldKey(
  collection: RoutedCollection,
  item: JsonObject,
): Extract<MemberKey, { kind: 'adoptable' } | { kind: 'invalid' }> {
  try {
    const managed = managedAttributes(collection);
    const input = Object.fromEntries(Object.entries(item).filter(([name]) => !managed.includes(name)));
    const prepared = prepareItem(collection, input, () => 0);
    // On every order field, not only the first, and on the group (which names the shard keys).
    const fields = orderOf(collection).map(({ field }) => field);
    if (collection.group) fields.push(collection.group.field);
    const held = fields.map((field) => heldAs(field, item[field]));
    return { kind: 'adoptable', indexKey: prepared.indexKey, held };
  } catch (error) {
    return { kind: 'invalid', reason: (error as Error).message };
  }
}

/** The attributes that give an item its entry in `view`'s index, on a shard its map picks. */
export function entryAttributes(view: RoutedCollection, indexKey: string, random: () => number): JsonObject {
  const shard = view.map.strategy.shardForWrite(valueOfIndexKey(indexKey), random);
  return {
    [view.map.index.shardKeyAttribute]: shardKey(view.prefix, shard),
    [view.map.index.indexKeyAttribute]: indexKey,
  };
}
