import pLimit from 'p-limit';
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CollectionSpec } from '../core/collection';
import { hashShard } from '../core/strategies/hash';
import type { LoadRecord } from '../load/load-record';
import { reservedPartition, resendable } from './reserved-keys';
import { DEFAULT_RETRY_POLICY, withRetries, type CallContext } from './retry';

/** The attribute DynamoDB's TTL reads on shardline's expiring items (epoch seconds). */
export const TTL_ATTRIBUTE = '_ttl';

/** Minutes of load records read at once. */
const READ_CONCURRENCY = 16;

/**
 * Routers' minute records (DESIGN §12), in the reserved key space of the collection's
 * table: one partition per collection and minute (`__shardline#load#<c>#<minute>`), one
 * item per router in it, so a window of M minutes is M queries whatever the fleet's
 * size. The item's sort key is the router (a number drawn from it where the sort key is
 * a number); a table without a sort key cannot hold them (`supports`). Items expire by
 * DynamoDB TTL on `_ttl` where the table has it enabled (tables shardline creates do).
 */
export class LoadStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly ttlSeconds: number,
  ) {}

  static supports(collection: CollectionSpec): boolean {
    return collection.primaryKey.length > 1;
  }

  async write(collection: CollectionSpec, record: LoadRecord, context: CallContext = {}): Promise<void> {
    const [partition, sort] = collection.primaryKey;
    const item = {
      [partition!.name]: reservedPartition(collection, ownerOf(collection, record.minute)),
      [sort!.name]: sort!.type === 'N' ? hashShard(record.router, 1e15) : record.router,
      loadOf: collection.name,
      record: JSON.stringify(record),
      [TTL_ATTRIBUTE]: Math.ceil((record.minute + record.minuteMs) / 1000) + this.ttlSeconds,
    };
    await withRetries(
      'a write of a load record',
      (abortSignal) => this.doc.send(new PutCommand({ TableName: collection.table, Item: item }), { abortSignal }),
      context,
      DEFAULT_RETRY_POLICY,
    );
  }

  /** Every router's records of these minutes (each the start of one, epoch ms). */
  async read(collection: CollectionSpec, minutes: readonly number[], context: CallContext = {}): Promise<LoadRecord[]> {
    const partition = collection.primaryKey[0]!.name;
    // A day's window is 1,440 queries: a few at a time, so one request cannot flood the table.
    const limit = pLimit(READ_CONCURRENCY);
    const pages = await Promise.all(
      minutes.map((minute) =>
        limit(async () => {
          const records: LoadRecord[] = [];
          let after: Record<string, unknown> | undefined;
          do {
            const start = after;
            const page = await withRetries(
              'a read of load records',
              (abortSignal) =>
                this.doc.send(
                  new QueryCommand({
                    TableName: collection.table,
                    KeyConditionExpression: '#pk = :pk',
                    ExpressionAttributeNames: { '#pk': partition },
                    ExpressionAttributeValues: { ':pk': reservedPartition(collection, ownerOf(collection, minute)) },
                    ...(start && { ExclusiveStartKey: start }),
                  }),
                  { abortSignal },
                ),
              context,
              DEFAULT_RETRY_POLICY,
            );
            for (const item of page.Items ?? []) {
              if (item.loadOf === collection.name && typeof item.record === 'string') {
                records.push(JSON.parse(item.record) as LoadRecord);
              }
            }
            // A reserved number reads back as a JS number: sent again exactly (reserved-keys.ts).
            after = page.LastEvaluatedKey && resendable([page.LastEvaluatedKey])[0];
          } while (after);
          return records;
        }),
      ),
    );
    return pages.flat();
  }
}

function ownerOf(collection: CollectionSpec, minute: number): string {
  return `load#${collection.name}#${minute}`;
}
