import pLimit from 'p-limit';
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type CollectionSpec, TTL_ATTRIBUTE } from '../core/collection';
import { hashShard } from '../core/strategies/hash';
import type { LoadRecord } from '../load/load-record';
import { checkLoadRecord } from '../load/load-record-check';
import { MalformedRecords } from './malformed-records';
import { reservedPartition } from './reserved-keys';
import { sendRetried, type CallContext } from './retry';

/** Minutes read at once: a day's window is 1,440 queries, and one request must not flood the table. */
const READ_CONCURRENCY = 16;

/** Whether `collection`'s table can hold load records: they need its sort key (one item per router a minute). */
export function keepsLoadRecords(collection: CollectionSpec): boolean {
  return collection.primaryKey.length > 1;
}

/**
 * Routers' minute records in the collection's table, one reserved partition a minute and one item a router
 * in it (docs/autopilot.md). Items expire by DynamoDB TTL where the table has it enabled.
 */
export class LoadStore {
  private readonly malformed = new MalformedRecords();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly ttlSeconds: number,
  ) {}

  async write(collection: CollectionSpec, record: LoadRecord, context: CallContext = {}): Promise<void> {
    const [partition, sort] = collection.primaryKey;
    const item = {
      [partition!.name]: reservedPartition(collection, ownerOf(collection, record.minute)),
      [sort!.name]: sortKeyOf(collection, record.router),
      loadOf: collection.name,
      record: JSON.stringify(record),
      [TTL_ATTRIBUTE]: Math.ceil((record.minute + record.minuteMs) / 1000) + this.ttlSeconds,
    };
    const put = new PutCommand({ TableName: collection.table, Item: item });
    const label = { operation: 'put', table: collection.table } as const;
    await sendRetried(this.doc, put, 'a write of a load record', label, context);
  }

  /** Every router's records of these minutes (each the start of one, epoch ms). */
  async read(collection: CollectionSpec, minutes: readonly number[], context: CallContext = {}): Promise<LoadRecord[]> {
    const partition = collection.primaryKey[0]!.name;
    const label = { operation: 'query', table: collection.table } as const;
    const pages = await pLimit(READ_CONCURRENCY).map(minutes, async (minute) => {
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
        const page = await sendRetried(this.doc, query, 'a read of load records', label, context);
        records.push(...(page.Items ?? []).flatMap((item) => this.check(collection, minute, item) ?? []));
        after = page.LastEvaluatedKey;
      } while (after);
      return records;
    });
    return pages.flat();
  }

  /** The record `item` holds, if a router could have written it there; else none (reported once). */
  private check(collection: CollectionSpec, minute: number, item: Record<string, unknown>): LoadRecord | undefined {
    // A reserved number is a hash of its owner: the item says whose it is.
    if (item.loadOf !== collection.name) return undefined;
    const [partition, sort] = collection.primaryKey;
    let found = checkLoadRecord(item.record, { collection: collection.name, minute });
    // A numeric sort key reads back as its exact text (a NumberValue): compared as text.
    if (typeof found !== 'string' && String(item[sort!.name]) !== String(sortKeyOf(collection, found.router))) {
      found = `it is stored under another router's key than "${found.router}"`;
    }
    if (typeof found !== 'string') return found;
    const key = { [partition!.name]: item[partition!.name], [sort!.name]: item[sort!.name] };
    this.malformed.report('load record', collection.table, key, found);
    return undefined;
  }
}

/** One item per router in a minute's partition: the router's id, or a number drawn from it. */
function sortKeyOf(collection: CollectionSpec, router: string): string | number {
  return collection.primaryKey[1]!.type === 'N' ? hashShard(router, 1e15) : router;
}

function ownerOf(collection: CollectionSpec, minute: number): string {
  return `load#${collection.name}#${minute}`;
}
