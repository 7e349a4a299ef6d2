import type { RoutedCollection } from '../core/collection';
import { ShardlineError } from '../core/errors';
import { groupShards } from '../core/group-view';
import { parseShardKey } from '../core/index-key';
import { managedAttributes, prepareItem, type JsonObject, type PreparedItem } from '../core/item';
import { applyMergePatch } from '../core/merge-patch';
import { canonicalText, isPlainObject } from '../core/values';
import type { Store } from '../store/store';
import { guardAsRead, type Preconditions, readOwned, refusedAfterRead } from './guards';
import type { RequestContext } from './metrics/request-tally';
import { countWrite, type WriteResult, writeResult } from './write-items';

/** Attempts of a patch whose item changed between its read and its write (no If-Match given). */
const PATCH_ATTEMPTS = 3;
/**
 * At most this many attributes set or removed by one UpdateItem, so its expression stays inside DynamoDB's
 * 4 KB; a patch that changes more is written whole, by PutItem under the same guard (the same item results).
 */
const MAX_UPDATED_ATTRIBUTES = 100;

/**
 * Applies a JSON merge patch (RFC 7396) to one item: read, patched and checked like a PUT, then one
 * UpdateItem sets what changed (every write map's index attributes too: a new ordered value moves the
 * item in the same write) on condition of the ETag it was read with. A concurrent write in between is
 * a 412 with `If-Match`; without it the patch is applied to the new item.
 */
export async function patchItem(
  store: Store,
  maps: readonly RoutedCollection[],
  key: JsonObject,
  patch: unknown,
  context: RequestContext,
  random: () => number = Math.random,
  preconditions: Preconditions = {},
): Promise<WriteResult> {
  const [collection] = maps as [RoutedCollection, ...RoutedCollection[]];
  if (!isPlainObject(patch)) throw new ShardlineError('invalid_item', 'a merge patch of an item must be a JSON object');
  for (let attempt = 0; attempt < PATCH_ATTEMPTS; attempt++) {
    const current = await readOwned(store, collection, key, context, preconditions);
    const prepared = patched(maps, current, patch, random);
    const guard = guardAsRead(collection, 'must', current);
    const { set, remove } = changes(current, prepared.record);
    const result = writeResult(prepared);
    if (Object.keys(set).length === 0 && remove.length === 0) return result;
    const outcome =
      Object.keys(set).length + remove.length > MAX_UPDATED_ATTRIBUTES
        ? await store.putItem(collection.table, prepared.record, context, guard)
        : await store.updateItem({ table: collection.table, key, set, remove, guard }, context);
    if (outcome.applied) {
      // A patch is a write: its shard's (and group's) load counts it, or a group busy with patches looks cold.
      countWrite(context, collection, prepared);
      return result;
    }
    refusedAfterRead(collection, outcome.current, preconditions, 'the item changed during the patch');
  }
  throw new ShardlineError('conflict', 'the item kept changing while it was patched; try again');
}

/** The patched item, prepared like a PUT; an unchanged ordered value keeps its shards. */
function patched(maps: readonly RoutedCollection[], current: JsonObject, patch: JsonObject, random: () => number) {
  const [collection, ...also] = maps as [RoutedCollection, ...RoutedCollection[]];
  const managed = new Set(managedAttributes(collection));
  const item = Object.fromEntries(Object.entries(current).filter(([name]) => !managed.has(name)));
  refuseKeyPatch(collection, patch);
  return keepShards(maps, current, prepareItem(collection, applyMergePatch(item, patch), random, also));
}

/** `prepared` keeping `current`'s shard under each map whose index key it keeps: no reason to move it. */
export function keepShards(maps: readonly RoutedCollection[], current: JsonObject, prepared: PreparedItem) {
  const [collection] = maps as [RoutedCollection, ...RoutedCollection[]];
  const record = { ...prepared.record };
  for (const view of maps) {
    const { shardKeyAttribute, indexKeyAttribute } = view.map.index;
    if (
      current[indexKeyAttribute] === record[indexKeyAttribute] &&
      keepable(view, current[shardKeyAttribute], prepared)
    ) {
      record[shardKeyAttribute] = current[shardKeyAttribute];
    }
  }
  const shardKey = String(record[collection.map.index.shardKeyAttribute]);
  return { ...prepared, record, shardKey, shard: parseShardKey(shardKey)?.shard ?? prepared.shard };
}

/**
 * Whether a stored shard key can stay: always in an ungrouped collection (the same index key under the
 * same map); in a grouped one only in the item's group (a patch that changes its group moves it) and on
 * a shard the group still writes (a shrinking group's dropped shards are being emptied).
 */
function keepable(view: RoutedCollection, stored: unknown, prepared: PreparedItem): boolean {
  if (typeof stored !== 'string') return false;
  if (prepared.group === undefined) return true;
  const parsed = parseShardKey(stored);
  const next = parseShardKey(String(prepared.record[view.map.index.shardKeyAttribute]));
  return parsed?.prefix === next?.prefix && parsed!.shard < groupShards(view, prepared.group).writeShards;
}

/** A patch may not change the primary key (a 400). */
export function refuseKeyPatch(collection: RoutedCollection, patch: JsonObject): void {
  for (const { name } of collection.primaryKey) {
    if (Object.hasOwn(patch, name))
      throw new ShardlineError('invalid_item', `primary key attribute "${name}" cannot be patched`);
  }
}

/** The top-level attributes an UpdateItem sets and removes to turn `current` into `next`. */
function changes(current: JsonObject, next: JsonObject): { set: JsonObject; remove: string[] } {
  const set: JsonObject = {};
  for (const [name, value] of Object.entries(next)) {
    if (!Object.hasOwn(current, name) || canonicalText(current[name]) !== canonicalText(value)) set[name] = value;
  }
  const remove = Object.keys(current).filter((name) => !Object.hasOwn(next, name));
  return { set, remove };
}
