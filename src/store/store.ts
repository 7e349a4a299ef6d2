import type { JsonObject } from '../core/item';
import type { CallContext } from './retry';
import type { KeyRange } from './key-range-query';
import type { ShardQuery } from './shard-query';

/** One page of one shard, in index order, already restricted to the query's range. */
export interface ShardPage {
  readonly items: JsonObject[];
  /** Items DynamoDB read for this page (what it bills). */
  readonly itemsRead: number;
  /** The index sort key the next page resumes after (in the query's order); undefined when the shard is done. */
  readonly resumeAfter?: string;
  readonly consumedCapacity?: number;
  /** The query was sent twice (store/hedged-send). */
  readonly hedged?: boolean;
}

/** Which collection an item must belong to (a shard key in one of `attributes` starts with the prefix). */
export interface Owner {
  readonly attributes: readonly string[];
  readonly prefix: string;
}

/**
 * What must hold of the stored item for a write to land. DynamoDB checks it in the write
 * itself (a condition expression), so no other write can come between a check and the write.
 */
export interface WriteGuard {
  /** Partition key first. */
  readonly keyAttributes: readonly string[];
  readonly owner: Owner;
  /** `may`: absent or the owner's; `must`: the owner's; `mustNot`: absent (`If-None-Match: *`). */
  readonly presence: 'may' | 'must' | 'mustNot';
  /** With `may`: an existing item that belongs to no collection may be taken, too. */
  readonly adoptUnowned?: boolean;
  /** The item's stored ETag must be one of these, or (`absent`) it must have none. */
  readonly etag?: { readonly attribute: string; readonly oneOf: readonly string[] | 'absent' };
}

/** A refused write has the item as it stood just after (undefined: absent). */
export type WriteOutcome =
  | { readonly applied: true }
  | { readonly applied: false; readonly current: JsonObject | undefined };

/** A change to some top-level attributes of one item (one UpdateItem). */
export interface ItemUpdate {
  readonly table: string;
  readonly key: JsonObject;
  readonly set: JsonObject;
  readonly remove: readonly string[];
  readonly guard: WriteGuard;
}

export interface ReadOptions {
  /** All when unset. */
  readonly attributes?: readonly string[];
  readonly consistent?: boolean;
}

/** What the item and listing paths ask of DynamoDB (`DynamoStore`; tests of the service may use a fake). */
export interface Store {
  queryShard(query: ShardQuery, context: CallContext): Promise<ShardPage>;
  putItem(table: string, record: JsonObject, context: CallContext, guard: WriteGuard): Promise<WriteOutcome>;
  updateItem(update: ItemUpdate, context: CallContext): Promise<WriteOutcome>;
  getItem(table: string, key: JsonObject, context: CallContext, options?: ReadOptions): Promise<JsonObject | undefined>;
  /** The items of `keys` that exist (BatchGetItem, unprocessed keys retried), in no particular order. */
  batchGet(
    table: string,
    keys: readonly JsonObject[],
    context: CallContext,
    options?: ReadOptions,
  ): Promise<JsonObject[]>;
  deleteItem(table: string, key: JsonObject, context: CallContext, guard: WriteGuard): Promise<WriteOutcome>;
  /** The items of one partition between two sort keys, every page (an entity in parts and its chunks). */
  queryKeyRange(range: KeyRange, context: CallContext): Promise<JsonObject[]>;
  ping(table: string, context: CallContext): Promise<void>;
}
