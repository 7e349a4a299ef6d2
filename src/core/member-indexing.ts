import type { RoutedCollection } from './collection';
import { parseShardKey } from './index-key';
import type { JsonObject } from './item';
import { matchesMembers } from './members';
import { entryAttributes, entryFits, entryIn, fieldKey, type ItemCondition } from './reindex';

/**
 * What one stored item needs so that the collection's listings show it where its
 * ordered field says, decided purely from the item as read: the one decision that both
 * adoption (`npm run reshard -- --adopt`) and the change followers (the Lambda's
 * Streams handler, `npm run follow`) carry out, with a conditional update.
 */

export type IndexingDecision =
  /** Not the collection's: never touched. */
  | { readonly kind: 'not-member' }
  /** A member whose ordered field cannot be indexed (too long, not a string, U+0000 …): reported, skipped. */
  | { readonly kind: 'invalid'; readonly reason: string }
  /** Every write map's entry is already what the ordered field gives. */
  | { readonly kind: 'current' }
  /** Set these attributes, provided the item still holds everything the decision read. */
  | { readonly kind: 'update'; readonly set: JsonObject; readonly when: readonly ItemCondition[] };

/**
 * Decides for `item` (as read: a scanned item, or a stream record's new image) against
 * `writes`, the collection as each map that writes set sees it (the read map first;
 * two during an online reshard).
 *
 * Members: items carrying an entry of this collection in either of its indexes (written
 * through shardline), and items its `members` rule matches that carry no other
 * collection's entry. shardline's own items (`isReserved`) never are.
 *
 * A member gets, in every write map where its entry is missing or stale (another index
 * sort key: its ordered field changed; or a shard the map would not pick), the entry
 * its ordered fields give. The update's conditions are everything this read: every order
 * field's value and each changed entry as it was, so a newer write (through shardline or not)
 * always wins, and a deleted item is never brought back. Applying the update leaves an
 * item for which this returns `current`: a follower that sees its own change does nothing.
 */
export function decideIndexing(
  writes: readonly RoutedCollection[],
  item: JsonObject,
  isReserved: (item: JsonObject) => boolean,
  random: () => number,
): IndexingDecision {
  const collection = writes[0];
  if (!collection || isReserved(item)) return { kind: 'not-member' };
  const owners = collection.indexes.map((index) => item[index.shardKeyAttribute]).filter((key) => key !== undefined);
  const ours = (key: unknown) => typeof key === 'string' && parseShardKey(key)?.prefix === collection.prefix;
  // An entry of another collection sharing the index: that item is the other collection's.
  if (owners.some((key) => !ours(key))) return { kind: 'not-member' };
  const listed = owners.length > 0;
  if (!listed && !(collection.members && matchesMembers(collection.members, item))) return { kind: 'not-member' };

  const key = fieldKey(collection, item);
  if (key.kind === 'invalid') return key;
  const set: JsonObject = {};
  const when: ItemCondition[] = [...key.held];
  for (const view of writes) {
    if (entryFits(view, entryIn(view, item), key.indexKey)) continue;
    Object.assign(set, entryAttributes(view, key.indexKey, random));
    for (const attribute of [view.map.index.shardKeyAttribute, view.map.index.indexKeyAttribute]) {
      const read = item[attribute];
      when.push(read === undefined ? { kind: 'absent', attribute } : { kind: 'equals', attribute, value: read });
    }
  }
  return Object.keys(set).length === 0 ? { kind: 'current' } : { kind: 'update', set, when };
}
