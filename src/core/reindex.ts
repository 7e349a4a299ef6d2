import { etagAttributeOf, type RoutedCollection } from './collection';
import { indexSortKey, parseShardKey, shardKey, valueOfIndexKey } from './index-key';
import { prepareItem, readPrimaryKey, type JsonObject } from './item';
import { matchesMembers } from './members';
import { orderedValueOf, orderOf } from './order';

/**
 * What the migration scans decide about one stored item, purely from the item and the
 * collection's views (the collection as one shard map in one index sees it). The
 * store carries the decisions out with conditional updates.
 */

/** An item's entry in one index: its shard key and index sort key there. */
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

/** The shard number of an index entry (NaN when its shard key is malformed). */
export function shardOf(entry: IndexEntry): number {
  return parseShardKey(entry.shardKey)?.shard ?? Number.NaN;
}

/** Whether an entry is one `view`'s map could have written for this index key. */
export function entryFits(view: RoutedCollection, entry: IndexEntry | undefined, indexKey: string): boolean {
  if (!entry || entry.indexKey !== indexKey) return false;
  const shard = shardOf(entry);
  return view.map.strategy.shardsForValue(valueOfIndexKey(indexKey)).includes(shard);
}

/** Something the item must still hold when an update lands (else the update changes nothing). */
export type ItemCondition =
  | { readonly kind: 'equals'; readonly attribute: string; readonly value: unknown }
  | { readonly kind: 'absent'; readonly attribute: string };

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

/**
 * Whether `item` belongs to the collection and under which index sort key: items with
 * an entry in `listed` (the index listings read) keep that key, so a cursor means the
 * same in both indexes; items matched only by the `members` rule get the key their
 * ordered field gives, checked as a write through shardline would be.
 */
export function memberKey(
  listed: RoutedCollection,
  item: JsonObject,
  isReserved: (item: JsonObject) => boolean,
): MemberKey {
  const entry = entryIn(listed, item);
  if (entry) return { kind: 'indexed', indexKey: entry.indexKey };
  if (!listed.members || isReserved(item) || !matchesMembers(listed.members, item)) return { kind: 'not-member' };
  return fieldKey(listed, item);
}

/**
 * The index sort key `item`'s ordered field gives, checked as a write through shardline
 * would be (the index attributes it already carries aside): a member the API would
 * refuse is never indexed.
 */
export function fieldKey(
  collection: RoutedCollection,
  item: JsonObject,
): Extract<MemberKey, { kind: 'adoptable' } | { kind: 'invalid' }> {
  try {
    // What shardline manages (index attributes, the ETag) is not the item's own: prepare the rest.
    const etag = etagAttributeOf(collection);
    const input = Object.fromEntries(
      Object.entries(item).filter(
        ([name]) => name !== etag && !collection.indexes.some((index) => isIndexAttribute(index, name)),
      ),
    );
    const prepared = prepareItem(collection, input, () => 0);
    return { kind: 'adoptable', indexKey: prepared.indexKey, held: orderHeld(collection, item) };
  } catch (error) {
    return { kind: 'invalid', reason: (error as Error).message };
  }
}

/** Each order field still holds what `item` held (or is still absent): on every field, not only the first. */
function orderHeld(collection: RoutedCollection, item: JsonObject): ItemCondition[] {
  return orderOf(collection).map(({ field }) => {
    const value = item[field];
    return value === undefined ? { kind: 'absent', attribute: field } : { kind: 'equals', attribute: field, value };
  });
}

function isIndexAttribute(index: RoutedCollection['indexes'][number], name: string): boolean {
  return name === index.shardKeyAttribute || name === index.indexKeyAttribute;
}

/** The attributes that give an item its entry in `view`'s index, on a shard its map picks. */
export function entryAttributes(view: RoutedCollection, indexKey: string, random: () => number): JsonObject {
  const shard = view.map.strategy.shardForWrite(valueOfIndexKey(indexKey), random);
  return {
    [view.map.index.shardKeyAttribute]: shardKey(view.prefix, shard),
    [view.map.index.indexKeyAttribute]: indexKey,
  };
}

/** The index sort key an item's current field value gives (for checks in tests and tools). */
export function fieldIndexKey(collection: RoutedCollection, item: JsonObject): string {
  return indexSortKey(orderedValueOf(collection, item), readPrimaryKey(collection, item));
}
