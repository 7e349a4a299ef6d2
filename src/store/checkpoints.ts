import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CollectionSpec } from '../core/collection';
import type { JsonObject } from '../core/item';
import { batchGetAll } from './batch-get';
import { MalformedRecords } from './malformed-records';
import { reservedKey, reservedOwner } from './reserved-keys';
import { DEFAULT_RETRY_POLICY, sendRetried, type CallContext, type RetryPolicy } from './retry';

/** How far a follower got in one stream shard. */
export interface ShardCheckpoint {
  /** The last record handled. */
  readonly sequence?: string;
  /** Read to its end (a closed shard): its children may start. */
  readonly done: boolean;
}

const FOLLOW_OWNER = 'follow#';

/**
 * A follower's checkpoints, one reserved item per stream shard in the followed table, so a restarted
 * follower resumes where it stopped. `follower` names the collections followed, `stream` the stream's
 * label: a re-enabled stream, or a follower of other collections, starts afresh.
 */
export class CheckpointStore {
  private readonly malformed = new MalformedRecords();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    /** Any collection of the table. */
    private readonly collection: CollectionSpec,
    private readonly follower: string,
    private readonly stream: string,
    private readonly retry: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {}

  async read(shards: readonly string[], context: CallContext = {}): Promise<Map<string, ShardCheckpoint>> {
    const found = new Map<string, ShardCheckpoint>();
    for (let start = 0; start < shards.length; start += 100) {
      const keys = shards.slice(start, start + 100).map((shard) => this.key(shard));
      const requests = { [this.collection.table]: { Keys: keys, ConsistentRead: true } };
      const read = { what: 'a read of the follower checkpoints', context, policy: this.retry };
      for (const item of await batchGetAll(this.doc, requests, read)) {
        const problem = checkpointProblem(item, shards) ?? this.misplaced(item);
        const sequence = item.sequence === undefined ? {} : { sequence: String(item.sequence) };
        if (!problem) found.set(String(item.shard), { ...sequence, done: item.done === true });
        // Read as absent: that shard is read again from its start, which indexing repeats harmlessly.
        else this.malformed.report('follower checkpoint', this.collection.table, this.keyOf(item), problem);
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
    const { table } = this.collection;
    const put = new PutCommand({ TableName: table, Item: item });
    const what = 'a write of a follower checkpoint';
    await sendRetried(this.doc, put, what, { operation: 'put', table }, context, this.retry);
  }

  /** A checkpoint names its shard twice, in its key and its `shard`: both must agree. */
  private misplaced(item: JsonObject): string | undefined {
    const partition = this.collection.primaryKey[0]!.name;
    const stored = item[partition];
    const expected = this.key(String(item.shard))[partition];
    // A reserved number reads back as its exact text (a NumberValue), as it was written: compared as numbers.
    const same = typeof stored === 'string' ? stored === expected : Number(String(stored)) === Number(String(expected));
    return same ? undefined : `it names shard "${String(item.shard)}" but is stored under another shard's key`;
  }

  private keyOf(item: JsonObject): JsonObject {
    return Object.fromEntries(this.collection.primaryKey.map(({ name }) => [name, item[name]]));
  }

  /** The partition key names the checkpoint whole, so any key schema holds it; a sort key gets `checkpoint` or 0. */
  private key(shard: string): JsonObject {
    return reservedKey(this.collection, `${FOLLOW_OWNER}${this.follower}#${this.stream}#${shard}`, ['checkpoint', 0]);
  }
}

/** What is wrong with a stored checkpoint of one of `shards`, if anything. */
function checkpointProblem(item: JsonObject, shards: readonly string[]): string | undefined {
  if (typeof item.shard !== 'string' || !shards.includes(item.shard)) return 'it names no shard asked for';
  if (typeof item.done !== 'boolean') return '"done" is not a boolean';
  // Sequence numbers are decimal digits (DynamoDB Streams); anything else would make GetShardIterator fail.
  if (item.sequence !== undefined && !(typeof item.sequence === 'string' && /^\d{1,64}$/.test(item.sequence))) {
    return '"sequence" is not a sequence number';
  }
  return undefined;
}

/**
 * Whether a changed item is a follower's checkpoint (whose own changes need none). A numeric key
 * does not say which reserved item it is: any counts (shard maps need no checkpoint either).
 */
export function isCheckpointItem(collection: CollectionSpec, key: JsonObject): boolean {
  const owner = reservedOwner(collection, key);
  return owner !== undefined && (owner === '' || owner.startsWith(FOLLOW_OWNER));
}
