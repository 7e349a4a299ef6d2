import type { CollectionSpec, RoutedCollection } from '../../core/collection';
import { ShardlineError } from '../../core/errors';
import { checkAttributes, type JsonObject, managedAttributes, prepareItem } from '../../core/item';
import { applyMergePatch } from '../../core/merge-patch';
import {
  encodePart,
  PART_OF_ATTRIBUTE,
  PARTS_ATTRIBUTE,
  partOfAttribute,
  partRefs,
  SEPARATOR,
  splitEntity,
} from '../../core/parts';
import { isPlainObject } from '../../core/values';
import type { CallContext } from '../../store/retry';
import type { Store } from '../../store/store';
import { guardAsRead, type Preconditions, readOwned, refusalReason, refusedAfterRead } from '../guards';
import { keepShards, refuseKeyPatch } from '../patch-item';
import type { RequestContext } from '../metrics/request-tally';
import { countWrite, type WriteResult, writeResult } from '../write-items';
import { commitEntity } from './commit-entity';
import { entityKey, merged, readParts } from './part-chunks';

/** Attempts of a write whose root changed between its read and its write (no If-Match given). */
const ATTEMPTS = 3;

/**
 * PUT of an entity in parts: checked like a PUT (the root's size against the item limit, the whole
 * against MAX_ENTITY_BYTES, a 413), then committed (commit-entity.ts). The answer's item is the
 * root's attributes: the parts stay where they are.
 */
export async function putEntity(
  store: Store,
  maps: readonly RoutedCollection[],
  input: unknown,
  context: RequestContext,
  random: () => number,
  preconditions: Preconditions = {},
): Promise<WriteResult> {
  const [collection, ...also] = maps as [RoutedCollection, ...RoutedCollection[]];
  if (!isPlainObject(input)) throw new ShardlineError('invalid_item', 'the item must be a JSON object');
  refuseOwnAttributes(input);
  const split = checkedSplit(collection, input);
  const root = prepareItem(collection, split.root, random, also);
  const key = entityKey(collection, root.primaryKey);
  if (key.sort[1].includes(SEPARATOR)) {
    throw new ShardlineError('invalid_item', 'a collection in parts takes no U+0000 in its sort key');
  }
  const parts = encodedParts(split.parts, Object.keys(collection.parts ?? {}));
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await store.getItem(collection.table, root.primaryKey, context, { consistent: true });
    const reason = refusalReason(collection, current, 'may', preconditions);
    if (reason) throw reason;
    const guard = guardAsRead(collection, 'may', current);
    const outcome = await commitEntity(store, collection, key, current, { root, parts }, guard, context);
    if (outcome.applied) {
      // Counted as one write, as a plain put is: the root carries the index entry (and the group).
      countWrite(context, collection, root);
      return { ...writeResult(root), etag: outcome.etag! };
    }
    if (preconditions.ifMatch !== undefined || preconditions.ifNoneMatch !== undefined) {
      throw new ShardlineError('precondition_failed', 'the item changed during the write');
    }
  }
  throw new ShardlineError('conflict', 'the item kept changing while it was written; try again');
}

/**
 * PATCH of an entity in parts: reads the root and the parts the patch touches, applies the merge
 * patch to them, and commits the root and the touched parts that changed. The answer's item is the
 * root's attributes and the touched parts' (docs/api.md).
 */
export async function patchEntity(
  store: Store,
  maps: readonly RoutedCollection[],
  primaryKey: JsonObject,
  patch: unknown,
  context: CallContext,
  random: () => number,
  preconditions: Preconditions = {},
): Promise<WriteResult> {
  const [collection, ...also] = maps as [RoutedCollection, ...RoutedCollection[]];
  if (!isPlainObject(patch)) throw new ShardlineError('invalid_item', 'a merge patch of an item must be a JSON object');
  refuseKeyPatch(collection, patch);
  refuseOwnAttributes(patch);
  const owner = partOfAttribute(collection.parts ?? {});
  const touched = [...new Set(Object.keys(patch).flatMap((name) => owner.get(name) ?? []))];
  const key = entityKey(collection, primaryKey);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await readOwned(store, collection, primaryKey, context, preconditions);
    const refs = new Map([...partRefs(current)].filter(([part]) => touched.includes(part)));
    const partAttributes = await readParts(store, collection, key, refs, context, true);
    // A touched part's version went: the root moved on since it was read.
    if (!partAttributes) continue;
    const after = applyMergePatch(merged(clientAttributes(collection, current), partAttributes), patch) as JsonObject;
    const split = checkedSplit(collection, after);
    const root = keepShards(maps, current, prepareItem(collection, split.root, random, also));
    const parts = encodedParts(split.parts, touched);
    const guard = guardAsRead(collection, 'must', current);
    const outcome = await commitEntity(store, collection, key, current, { root, parts }, guard, context);
    if (outcome.applied) {
      const item = merged(root.item, ...touched.map((part) => split.parts.get(part) ?? {}));
      return { shard: root.shard, shardKey: root.shardKey, item, etag: outcome.etag! };
    }
    refusedAfterRead(collection, outcome.current, preconditions, 'the item changed during the patch');
  }
  throw new ShardlineError('conflict', 'the item kept changing while it was patched; try again');
}

/** The entity's root and parts, each part's attributes checked as an item's are. */
function checkedSplit(collection: CollectionSpec, entity: JsonObject) {
  const split = splitEntity(collection.parts ?? {}, entity);
  for (const attributes of split.parts.values()) checkAttributes(attributes);
  return split;
}

/** The named parts' new bytes: null for a part the entity no longer has. */
function encodedParts(split: ReadonlyMap<string, JsonObject>, names: readonly string[]) {
  return new Map(names.map((part) => [part, split.has(part) ? encodePart(split.get(part)!) : null] as const));
}

/** The root's attributes as the client wrote them: shardline's own left out. */
function clientAttributes(collection: CollectionSpec, root: JsonObject): JsonObject {
  const own = new Set([...managedAttributes(collection), PARTS_ATTRIBUTE]);
  return Object.fromEntries(Object.entries(root).filter(([name]) => !own.has(name)));
}

function refuseOwnAttributes(input: JsonObject): void {
  for (const name of [PARTS_ATTRIBUTE, PART_OF_ATTRIBUTE]) {
    if (Object.hasOwn(input, name)) {
      throw new ShardlineError('invalid_item', `attribute "${name}" is managed by shardline and cannot be written`);
    }
  }
}
