import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CollectionSpec } from '../core/collection';
import type { JsonObject } from '../core/item';
import { batchGetAll } from './batch-get';
import { reservedOwner, reservedPartition, resendable } from './reserved-keys';
import { DEFAULT_RETRY_POLICY, withRetries, type CallContext, type RetryPolicy } from './retry';

/** How far a follower got in one stream shard. */
export interface ShardCheckpoint {
  /** The last record handled (undefined: none yet). */
  readonly sequence?: string;
  /** Read to its end (a closed shard): its children may start. */
  readonly done: boolean;
}

const FOLLOW_OWNER = 'follow#';

/**
 * A follower's checkpoints, one reserved item per stream shard in the followed table
 * itself (like the shard maps), so a restarted follower resumes where it stopped.
 * `follower` names who follows (the collections), `stream` the stream's label: a
 * re-enabled stream, or a follower of other collections, starts afresh.
 */
export class CheckpointStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    /** Any collection of the table: its table and primary key. */
    private readonly collection: CollectionSpec,
    private readonly follower: string,
    private readonly stream: string,
    private readonly retry: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {}

  /** The checkpoints of these shards (those without one are absent). */
  async read(shards: readonly string[], context: CallContext = {}): Promise<Map<string, ShardCheckpoint>> {
    const found = new Map<string, ShardCheckpoint>();
    const table = this.collection.table;
    for (let start = 0; start < shards.length; start += 100) {
      const keys = shards.slice(start, start + 100).map((shard) => this.key(shard));
      const items = await batchGetAll(
        this.doc,
        { [table]: { Keys: keys, ConsistentRead: true } },
        { what: 'a read of the follower checkpoints', context, policy: this.retry, again: resendable },
      );
      for (const item of items) {
        found.set(String(item.shard), {
          ...(typeof item.sequence === 'string' && { sequence: item.sequence }),
          done: item.done === true,
        });
      }
    }
    return found;
  }

  async write(shard: string, checkpoint: ShardCheckpoint, context: CallContext = {}): Promise<void> {
    const item = {
      ...this.key(shard),
      shard,
      done: checkpoint.done,
      updatedAt: new Date().toISOString(),
      ...(checkpoint.sequence !== undefined && { sequence: checkpoint.sequence }),
    };
    await withRetries(
      'a write of a follower checkpoint',
      (abortSignal) => this.doc.send(new PutCommand({ TableName: this.collection.table, Item: item }), { abortSignal }),
      context,
      this.retry,
    );
  }

  /**
   * The primary key of one shard's checkpoint: the partition key names it whole
   * (`__shardline#follow#<follower>#<stream>#<shard>`, or that name's reserved number), so
   * any key schema holds it; a sort key gets `checkpoint` (string) or 0 (number).
   */
  private key(shard: string): JsonObject {
    const [partition, sort] = this.collection.primaryKey;
    const owner = `${FOLLOW_OWNER}${this.follower}#${this.stream}#${shard}`;
    const key: JsonObject = { [partition!.name]: reservedPartition(this.collection, owner) };
    if (sort) key[sort.name] = sort.type === 'N' ? 0 : 'checkpoint';
    return key;
  }
}

/**
 * Whether a changed item is a follower's checkpoint (whose own changes need no checkpoint).
 * A numeric key does not say which reserved item it is: any counts (shard maps need no
 * checkpoint of their own either).
 */
export function isCheckpointItem(collection: CollectionSpec, key: JsonObject): boolean {
  const owner = reservedOwner(collection, key);
  return owner !== undefined && (owner === '' || owner.startsWith(FOLLOW_OWNER));
}
