import type { CollectionSpec } from '../core/collection';
import { ShardlineError } from '../core/errors';
import type { JsonObject } from '../core/item';
import { canonicalText, isPlainObject } from '../core/values';
import type { CallContext } from '../store/retry';
import type { Store } from '../store/store';
import { readBatch } from './batch-inputs';
import { belongsTo, refusalReason, writeGuard } from './guards';
import { type BatchOutcome, settleEach } from './item-failure';
import { primaryKeyFrom, projectionFor } from './read-item';

/** DynamoDB's BatchGetItem takes at most 100 keys: one batch-get is one call (plus retries). */
export const MAX_BATCH_GET_KEYS = 100;
/** docs/api.md: a batch-delete names at most 1000 keys. */
export const MAX_BATCH_DELETE_KEYS = 1000;

/** Checks and types a batch's keys: any malformed or repeated key refuses the whole request before any call. */
export function batchKeys(collection: CollectionSpec, inputs: readonly unknown[]): JsonObject[] {
  return readBatch(
    inputs,
    (input) => {
      if (!isPlainObject(input)) throw new ShardlineError('invalid_request', 'a key must be a JSON object');
      const key = primaryKeyFrom(collection, input);
      return { value: key, key };
    },
    {
      code: 'invalid_request',
      summary: (bad) => `${bad} of ${inputs.length} keys are invalid`,
      repeated: (first) => `the same key as key ${first}`,
    },
  );
}

/**
 * A batch-get's `fields` with the primary key attributes first, each once (`fields` may name them too):
 * every item read and returned carries its key, or it could not be matched to the key asked.
 */
export function withKeyFields(collection: CollectionSpec, fields: readonly string[]): string[] {
  return [...new Set([...collection.primaryKey.map(({ name }) => name), ...fields])];
}

/** The records of the keys that name an item of the collection, in the keys' order, and the other keys. */
export async function batchGet(
  store: Store,
  collection: CollectionSpec,
  keys: readonly JsonObject[],
  context: CallContext,
  fields?: readonly string[],
): Promise<{ records: JsonObject[]; missing: JsonObject[] }> {
  const attributes = projectionFor(collection, fields && withKeyFields(collection, fields));
  const read = await store.batchGet(collection.table, keys, context, attributes ? { attributes } : {});
  const ours = read.filter((record) => belongsTo(collection, record));
  const byKey = new Map(ours.map((record) => [canonicalText(primaryKeyFrom(collection, record)), record]));
  const found = keys.map((key) => byKey.get(canonicalText(key)));
  return foundOrMissing(keys, found);
}

/** A batch read's answer: the records found, and the keys (by position in `found`) that found none. */
export function foundOrMissing(
  keys: readonly JsonObject[],
  found: readonly (JsonObject | undefined)[],
): { records: JsonObject[]; missing: JsonObject[] } {
  return {
    records: found.filter((record) => record !== undefined),
    missing: keys.filter((_, index) => !found[index]),
  };
}

/**
 * Deletes each key's item with its own conditional DeleteItem (BatchWriteItem takes no conditions,
 * and another collection's item must never be deleted through this one). Every key ends up
 * deleted or failed: absent (404), another collection's (409), or DynamoDB's error.
 */
export async function batchDelete(
  store: Store,
  collection: CollectionSpec,
  keys: readonly JsonObject[],
  context: CallContext,
): Promise<{ deleted: number; failed: BatchOutcome['failed'] }> {
  const guard = writeGuard(collection, 'must');
  const { done, failed } = await settleEach(keys, async (key) => {
    const outcome = await store.deleteItem(collection.table, key, context, guard);
    if (outcome.applied) return;
    const changed = new ShardlineError('conflict', 'the item changed while it was deleted; try again');
    throw refusalReason(collection, outcome.current, 'must') ?? changed;
  });
  return { deleted: done.length, failed };
}
