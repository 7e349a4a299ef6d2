import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import { isDynamoError } from './dynamo-errors';
import { sendRetried, type CallContext } from './retry';
import type { StreamRecordLike } from './stream-records';

/** One shard of a stream: records of one key range for a few hours, then closed (and maybe split). */
export interface StreamShard {
  readonly id: string;
  /** All of the parent's records come before any of its own. */
  readonly parent?: string;
  /** It takes no new records (it is done once read to its end). */
  readonly closed: boolean;
}

export interface RecordsPage {
  readonly records: StreamRecordLike[];
  /** Where to read next; undefined once a closed shard has been read to its end. */
  readonly next?: string;
}

/** Reads one stream: its shards, and each shard's records in order. Every call is retried like the store's. */
export class StreamReader {
  private readonly client: DynamoDBStreamsClient;

  /**
   * Reaches the same place as the same identity as `client`: the same local engine (DynamoDB Local serves
   * both APIs on one endpoint), or AWS's Streams endpoint of the same region.
   */
  constructor(
    client: DynamoDBClient,
    endpoint: string | undefined,
    readonly arn: string,
  ) {
    this.client = new DynamoDBStreamsClient({
      maxAttempts: 1,
      region: client.config.region,
      credentials: client.config.credentials,
      ...(endpoint && { endpoint }),
    });
  }

  /** Every shard the stream still holds (the last 24 hours), parents listed before their children. */
  async shards(context: CallContext = {}): Promise<StreamShard[]> {
    const shards: Shard[] = [];
    let after: string | undefined;
    do {
      const describe = new DescribeStreamCommand({
        StreamArn: this.arn,
        ...(after && { ExclusiveStartShardId: after }),
      });
      const label = { operation: 'describe_stream' } as const;
      const page = await sendRetried(this.client, describe, 'a description of the stream', label, context);
      shards.push(...(page.StreamDescription?.Shards ?? []));
      after = page.StreamDescription?.LastEvaluatedShardId;
    } while (after);
    return shards.map((shard) => ({
      id: shard.ShardId!,
      ...(shard.ParentShardId && { parent: shard.ParentShardId }),
      closed: shard.SequenceNumberRange?.EndingSequenceNumber !== undefined,
    }));
  }

  /**
   * Where to read `shard` from: just after `after` (the last record handled), or its oldest
   * record. 'trimmed' when `after` is older than the stream keeps (24 hours).
   */
  async iterator(shard: string, after: string | undefined, context: CallContext = {}): Promise<string | 'trimmed'> {
    const command = new GetShardIteratorCommand({
      StreamArn: this.arn,
      ShardId: shard,
      ...(after
        ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
        : { ShardIteratorType: 'TRIM_HORIZON' }),
    });
    try {
      const what = `an iterator of stream shard ${shard}`;
      const answer = await sendRetried(this.client, command, what, { operation: 'get_shard_iterator' }, context);
      return answer.ShardIterator!;
    } catch (error) {
      if (isDynamoError(error, 'TrimmedDataAccessException')) return 'trimmed';
      throw error;
    }
  }

  /** The next records after `iterator` (at most `limit`); 'expired' when the iterator is (15 minutes). */
  async read(iterator: string, limit: number, context: CallContext = {}): Promise<RecordsPage | 'expired'> {
    const command = new GetRecordsCommand({ ShardIterator: iterator, Limit: limit });
    try {
      const label = { operation: 'get_records' } as const;
      const answer = await sendRetried(this.client, command, 'a read of the stream', label, context);
      return {
        records: (answer.Records ?? []) as StreamRecordLike[],
        ...(answer.NextShardIterator && { next: answer.NextShardIterator }),
      };
    } catch (error) {
      if (isDynamoError(error, 'ExpiredIteratorException')) return 'expired';
      throw error;
    }
  }

  close(): void {
    this.client.destroy();
  }
}
