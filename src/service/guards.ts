import { etagAttributeOf, type CollectionSpec } from '../core/collection';
import { ShardlineError } from '../core/errors';
import { isShardKeyOf, shardKeyPrefix } from '../core/index-key';
import type { JsonObject } from '../core/item';
import { isPlainObject } from '../core/values';
import { isReservedItem, reservedKeySpace } from '../store/reserved-keys';
import type { CallContext } from '../store/retry';
import type { Store, WriteGuard, WriteOutcome } from '../store/store';

/** A request's conditions on the stored item (`If-Match`, `If-None-Match`), parsed. */
export interface Preconditions {
  /** `*`: the item must exist; a list: its ETag must be one of them. */
  readonly ifMatch?: '*' | readonly string[];
  /** `*`: the item must not exist (create only). */
  readonly ifNoneMatch?: '*';
}

/**
 * Refuses, before any DynamoDB call, keys (or items) in shardline's own key space (src/store/reserved-keys.ts):
 * a 403 `reserved_key` naming the space. One reserved key refuses a whole batch, its indexes listed.
 */
export function refuseReservedKeys(collection: CollectionSpec, sources: readonly unknown[]): void {
  const reserved = sources.flatMap((source, index) =>
    isPlainObject(source) && isReservedItem(collection, source) ? [index] : [],
  );
  if (reserved.length === 0) return;
  const { words, details } = reservedKeySpace(collection);
  const which = sources.length === 1 ? 'the key is' : `${reserved.length} of ${sources.length} keys are`;
  throw new ShardlineError(
    'reserved_key',
    `${which} in shardline's reserved key space (${words}): its own records, never an item of a collection`,
    { ...details, ...(sources.length > 1 && { indexes: reserved }) },
  );
}

/** Whether a stored record was written through this collection (it carries its shard key in either index). */
export function belongsTo(collection: CollectionSpec, record: JsonObject): boolean {
  return collection.indexes.some(({ shardKeyAttribute }) => isShardKeyOf(record[shardKeyAttribute], collection.prefix));
}

/**
 * The guard DynamoDB checks in a write through `collection`: the item is this collection's (or,
 * for `may`, absent or written by no collection yet) and the preconditions hold. Another
 * collection's item is never written: a 409, not a move.
 */
export function writeGuard(
  collection: CollectionSpec,
  presence: WriteGuard['presence'],
  preconditions: Preconditions = {},
): WriteGuard {
  const { ifMatch, ifNoneMatch } = preconditions;
  // Only weak or no ETags listed: nothing can match a strong comparison.
  if (Array.isArray(ifMatch) && ifMatch.length === 0) {
    throw new ShardlineError('precondition_failed', 'If-Match lists no strong ETag, so none can match');
  }
  const effective = ifNoneMatch === '*' ? 'mustNot' : ifMatch !== undefined ? 'must' : presence;
  return {
    keyAttributes: collection.primaryKey.map(({ name }) => name),
    owner: {
      attributes: collection.indexes.map(({ shardKeyAttribute }) => shardKeyAttribute),
      prefix: shardKeyPrefix(collection.prefix),
    },
    presence: effective,
    adoptUnowned: effective === 'may',
    ...(Array.isArray(ifMatch) && { etag: { attribute: etagAttributeOf(collection), oneOf: ifMatch } }),
  };
}

/**
 * Why a guarded write was refused, from the item as it stood right after (409: another collection's,
 * 412: a failed precondition, 404: none of this collection); undefined when the item now satisfies the
 * guard (it changed in between: the caller may try again).
 */
export function refusalReason(
  collection: CollectionSpec,
  current: JsonObject | undefined,
  presence: WriteGuard['presence'],
  preconditions: Preconditions = {},
): ShardlineError | undefined {
  const ours = current !== undefined && belongsTo(collection, current);
  // The shard key of another collection that the item carries, if any.
  const foreign = ours
    ? undefined
    : collection.indexes
        .map(({ shardKeyAttribute }) => current?.[shardKeyAttribute])
        .find((key) => typeof key === 'string' && !isShardKeyOf(key, collection.prefix));
  if (foreign !== undefined) {
    return new ShardlineError(
      'conflict',
      `the item belongs to another collection (its shard key is "${foreign}"); ` +
        `collection "${collection.name}" does not write it`,
    );
  }
  if (preconditions.ifNoneMatch === '*' && current !== undefined) {
    return new ShardlineError('precondition_failed', 'If-None-Match: * but the item exists');
  }
  if (preconditions.ifMatch !== undefined) {
    if (!ours) return new ShardlineError('precondition_failed', 'If-Match but there is no such item');
    const etag = current[etagAttributeOf(collection)];
    const wanted = preconditions.ifMatch;
    if (wanted !== '*' && !(typeof etag === 'string' && wanted.includes(etag))) {
      return new ShardlineError('precondition_failed', "If-Match does not match the item's current ETag");
    }
  }
  if (!ours && presence === 'must') return notFound(collection);
  return undefined;
}

export function notFound(collection: CollectionSpec): ShardlineError {
  return new ShardlineError('item_not_found', `no item with that primary key in collection "${collection.name}"`);
}

/** Attempts of a guarded write whose refusal the item no longer explains (it changed in between). */
const GUARDED_ATTEMPTS = 3;

/** Runs a write under its guard until it lands or its refusal has a reason (thrown as a 404, 409 or 412). */
export async function writeGuarded(
  collection: CollectionSpec,
  presence: WriteGuard['presence'],
  preconditions: Preconditions,
  write: (guard: WriteGuard) => Promise<WriteOutcome>,
): Promise<void> {
  const guard = writeGuard(collection, presence, preconditions);
  for (let attempt = 0; attempt < GUARDED_ATTEMPTS; attempt++) {
    const outcome = await write(guard);
    if (outcome.applied) return;
    const reason = refusalReason(collection, outcome.current, presence, preconditions);
    if (reason) throw reason;
  }
  throw new ShardlineError('conflict', 'the item kept changing while it was written; try again');
}

/** A read-modify-write's start: the item read strongly, this collection's and meeting the preconditions. */
export async function readOwned(
  store: Store,
  collection: CollectionSpec,
  key: JsonObject,
  context: CallContext,
  preconditions: Preconditions,
): Promise<JsonObject> {
  const current = await store.getItem(collection.table, key, context, { consistent: true });
  const reason = refusalReason(collection, current, 'must', preconditions);
  if (reason) throw reason;
  if (!current) throw notFound(collection);
  return current;
}

/** The guard of a write over `current` as read: its ETag must still be the one read, so nothing since is lost. */
export function guardAsRead(
  collection: CollectionSpec,
  presence: WriteGuard['presence'],
  current: JsonObject | undefined,
): WriteGuard {
  const etag = current?.[etagAttributeOf(collection)];
  const oneOf = typeof etag === 'string' ? [etag] : ('absent' as const);
  return { ...writeGuard(collection, presence), etag: { attribute: etagAttributeOf(collection), oneOf } };
}

/**
 * A read-modify-write refused, `current` the item right after: throws why (404, 409, 412), or with If-Match
 * a 412 `changed`; returns when the caller may read again and retry.
 */
export function refusedAfterRead(
  collection: CollectionSpec,
  current: JsonObject | undefined,
  preconditions: Preconditions,
  changed: string,
): void {
  const why = refusalReason(collection, current, 'must', preconditions);
  if (why) throw why;
  if (preconditions.ifMatch !== undefined) throw new ShardlineError('precondition_failed', changed);
}
