import type { JsonObject } from '../core/item';
import type { CallContext } from './retry';
import type { ShardQuery } from './shard-query';

/** One page of one shard, in index order, already restricted to the query's range. */
export interface ShardPage {
  readonly items: JsonObject[];
  /** Items DynamoDB read for this page (what it bills). */
  readonly itemsRead: number;
  /**
   * When more items may follow in this shard: the index sort key the next page
   * resumes after (exclusive, in the query's order). Undefined when the shard is done.
   */
  readonly resumeAfter?: string;
  readonly consumedCapacity?: number;
  /** The query was sent twice (hedged): see store/hedged-send. */
  readonly hedged?: boolean;
}

/** The outcome of a batch: every input index is in exactly one of the two lists. */
export interface BatchOutcome {
  readonly written: number[];
  readonly failed: { index: number; error: { code: string; message: string } }[];
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
  /** The table's primary key attributes, partition key first. */
  readonly keyAttributes: readonly string[];
  /** The collection the item must belong to when it exists. */
  readonly owner: Owner;
  /** `may`: absent or the owner's; `must`: the owner's; `mustNot`: absent (`If-None-Match: *`). */
  readonly presence: 'may' | 'must' | 'mustNot';
  /** With `may`: an existing item that belongs to no collection may be taken, too. */
  readonly adoptUnowned?: boolean;
  /** The item's stored ETag must be one of these, or (`absent`) it must have none. */
  readonly etag?: { readonly attribute: string; readonly oneOf: readonly string[] | 'absent' };
}

/** A guarded write: applied, or refused with the item as it stood just after (undefined: absent). */
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

/** Which attributes a read returns (a projection); all when unset. */
export interface ReadOptions {
  readonly attributes?: readonly string[];
  readonly consistent?: boolean;
}

/**
 * What the item and listing paths ask of DynamoDB (shard maps, load records, scans and
 * table setup have their own modules in store/). The one implementation that talks to
 * DynamoDB is `DynamoStore`; tests of the service may use a fake.
 */
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
  /** Resolves once the table answers. */
  ping(table: string, context: CallContext): Promise<void>;
}
