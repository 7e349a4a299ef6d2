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
 * Everything shardline asks of DynamoDB. The one implementation that talks to
 * DynamoDB is `DynamoStore`; tests of the service may use a fake.
 */
export interface Store {
  queryShard(query: ShardQuery, context: CallContext): Promise<ShardPage>;
  putItem(table: string, record: JsonObject, context: CallContext): Promise<void>;
  batchPut(table: string, records: readonly JsonObject[], context: CallContext): Promise<BatchOutcome>;
  getItem(table: string, key: JsonObject, context: CallContext): Promise<JsonObject | undefined>;
  /** Deletes the item if one of its `owner.attributes` starts with `owner.prefix`; false when there was none. */
  deleteItem(table: string, key: JsonObject, context: CallContext, owner: Owner): Promise<boolean>;
  /** Resolves once the table answers. */
  ping(table: string, context: CallContext): Promise<void>;
}
