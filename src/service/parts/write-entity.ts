import { type CollectionSpec, type RoutedCollection, etagAttributeOf } from '../../core/collection';
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
import { emptyRecord, isPlainObject, setOwn } from '../../core/values';
import type { CallContext } from '../../store/retry';
import type { Store } from '../../store/store';
import { belongsTo, notFound, type Preconditions, refusalReason, writeGuard } from '../guards';
import { keepShards, refuseKeyPatch } from '../patch-item';
import type { RequestContext } from '../metrics/request-tally';
import { countWrite, type WriteResult } from '../write-items';
import { asRead, commitEntity } from './commit-entity';
import { entityKey, readParts } from './part-chunks';

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
  const split = splitEntity(collection.parts ?? {}, input);
  for (const attributes of split.parts.values()) checkAttributes(attributes);
  const root = prepareItem(collection, split.root, random, also);
  const key = entityKey(collection, root.primaryKey);
  if (key.sort[1].includes(SEPARATOR)) {
    throw new ShardlineError('invalid_item', 'a collection in parts takes no U+0000 in its sort key');
  }
  const parts = new Map(
    Object.keys(collection.parts ?? {}).map((part) => {
      const attributes = split.parts.get(part);
      return [part, attributes ? encodePart(attributes) : null] as const;
    }),
  );
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await store.getItem(collection.table, root.primaryKey, context, { consistent: true });
    const reason = refusalReason(collection, current, 'may', preconditions);
    if (reason) throw reason;
    const guard = { ...writeGuard(collection, 'may'), etag: asRead(collection, current) };
    const outcome = await commitEntity(store, collection, key, current, { root, parts }, guard, context);
    if (outcome.applied) {
      // Counted as one write, as a plain put is: the root carries the index entry (and the group).
      countWrite(context, collection, root);
      return { shard: root.shard, shardKey: root.shardKey, item: root.item, etag: outcome.etag! };
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
  const touched = new Set(Object.keys(patch).flatMap((name) => owner.get(name) ?? []));
  const key = entityKey(collection, primaryKey);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await store.getItem(collection.table, primaryKey, context, { consistent: true });
    const reason = refusalReason(collection, current, 'must', preconditions);
    if (reason) throw reason;
    if (!current || !belongsTo(collection, current)) throw notFound(collection);
    const refs = new Map([...partRefs(current)].filter(([part]) => touched.has(part)));
    const partAttributes = await readParts(store, collection, key, refs, context, true);
    // A touched part's version went: the root moved on since it was read.
    if (!partAttributes) continue;
    const after = applyMergePatch(merged(clientAttributes(collection, current), partAttributes), patch) as JsonObject;
    const split = splitEntity(collection.parts ?? {}, after);
    for (const attributes of split.parts.values()) checkAttributes(attributes);
    const root = keepShards(maps, current, prepareItem(collection, split.root, random, also));
    const parts = new Map(
      [...touched].map((part) => {
        const attributes = split.parts.get(part);
        return [part, attributes ? encodePart(attributes) : null] as const;
      }),
    );
    const guard = { ...writeGuard(collection, 'must'), etag: asRead(collection, current) };
    const outcome = await commitEntity(store, collection, key, current, { root, parts }, guard, context);
    if (outcome.applied) {
      const item = merged(root.item, ...[...touched].map((part) => split.parts.get(part) ?? {}));
      return { shard: root.shard, shardKey: root.shardKey, item, etag: outcome.etag! };
    }
    const why = refusalReason(collection, outcome.current, 'must', preconditions);
    if (why) throw why;
    if (preconditions.ifMatch !== undefined) {
      throw new ShardlineError('precondition_failed', 'the item changed during the patch');
    }
  }
  throw new ShardlineError('conflict', 'the item kept changing while it was patched; try again');
}

/** The root's attributes as the client wrote them: shardline's own left out. */
export function clientAttributes(collection: CollectionSpec, root: JsonObject): JsonObject {
  const own = new Set([...managedAttributes(collection), PARTS_ATTRIBUTE, etagAttributeOf(collection)]);
  const out = emptyRecord();
  for (const [name, value] of Object.entries(root)) if (!own.has(name)) setOwn(out, name, value);
  return out;
}

function merged(...records: JsonObject[]): JsonObject {
  const out = emptyRecord();
  for (const record of records) for (const [name, value] of Object.entries(record)) setOwn(out, name, value);
  return out;
}

function refuseOwnAttributes(input: JsonObject): void {
  for (const name of [PARTS_ATTRIBUTE, PART_OF_ATTRIBUTE]) {
    if (Object.hasOwn(input, name)) {
      throw new ShardlineError('invalid_item', `attribute "${name}" is managed by shardline and cannot be written`);
    }
  }
}
