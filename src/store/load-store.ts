import pLimit from 'p-limit';
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CollectionSpec } from '../core/collection';
import { hashShard } from '../core/strategies/hash';
import type { LoadRecord } from '../load/load-record';
import { reservedPartition, resendable } from './reserved-keys';
import { withRetries, type CallContext } from './retry';

/** The attribute DynamoDB's TTL reads on shardline's expiring items (epoch seconds). */
export const TTL_ATTRIBUTE = '_ttl';

/** Minutes read at once: a day's window is 1,440 queries, and one request must not flood the table. */
const READ_CONCURRENCY = 16;

/**
 * Routers' minute records (DESIGN §12) in the collection's table: one reserved partition per
 * collection and minute, one item per router in it (the sort key: the router, or a number drawn
 * from it), so a window of M minutes is M queries whatever the fleet's size. Items expire by
 * DynamoDB TTL where the table has it enabled (tables shardline creates do).
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
    const put = new PutCommand({ TableName: collection.table, Item: item });
    await withRetries('a write of a load record', (abortSignal) => this.doc.send(put, { abortSignal }), context);
  }

  /** Every router's records of these minutes (each the start of one, epoch ms). */
  async read(collection: CollectionSpec, minutes: readonly number[], context: CallContext = {}): Promise<LoadRecord[]> {
    const partition = collection.primaryKey[0]!.name;
    const limit = pLimit(READ_CONCURRENCY);
    const pages = await Promise.all(
      minutes.map((minute) =>
        limit(async () => {
          const records: LoadRecord[] = [];
          let after: Record<string, unknown> | undefined;
          do {
            const query = new QueryCommand({
              TableName: collection.table,
              KeyConditionExpression: '#pk = :pk',
              ExpressionAttributeNames: { '#pk': partition },
              ExpressionAttributeValues: { ':pk': reservedPartition(collection, ownerOf(collection, minute)) },
              ...(after && { ExclusiveStartKey: after }),
            });
            const page = await withRetries(
              'a read of load records',
              (abortSignal) => this.doc.send(query, { abortSignal }),
              context,
            );
            for (const item of page.Items ?? []) {
              if (item.loadOf === collection.name && typeof item.record === 'string')
                records.push(JSON.parse(item.record));
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
