import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import pLimit from 'p-limit';
import type { HedgePolicy } from '../core/hedge-policy';
import { inRange } from '../core/key-range';
import type { JsonObject } from '../core/item';
import { batchGetItems, readParameters } from './batch-get';
import { guardedWrite } from './item-writes';
import type { DynamoClients } from './client';
import { withRetries, type CallContext, type RetryOperation, type Send } from './retry';
import { hedgedSend } from './hedged-send';
import { type KeyRange, type QueryAnswer, queryKeyRange } from './key-range-query';
import { countingSender, type LeanClient } from './consumed-capacity';
import { buildShardQuery, passedFarEnd, type ShardQuery } from './shard-query';
import {
  sendScan,
  sendUpdate,
  type AttributeUpdate,
  type ScanPage,
  type ScanRequest,
  type UpdateOutcome,
} from './maintenance';
import type { ItemUpdate, ReadOptions, ShardPage, Store, WriteGuard, WriteOutcome } from './store';
import { recordToDynamoJson } from './attribute-json';
import { recordFromDynamoJson, type AttributeJson } from './dynamo-json';

/** Most DynamoDB requests in flight at once from this process. */
const MAX_IN_FLIGHT = 64;

/** The Store over DynamoDB. Numbers are their decimal text both ways: the values are never doubles. */
export class DynamoStore implements Store {
  private readonly limit = pLimit(MAX_IN_FLIGHT);
  /** When a query of each table last answered: proof enough that the table answers. */
  private readonly answeredAt = new Map<string, number>();

  constructor(
    private readonly clients: DynamoClients,
    /** Hedges slow shard queries (reads only); off when unset. */
    private readonly hedge?: HedgePolicy,
  ) {}

  async queryShard(query: ShardQuery, context: CallContext): Promise<ShardPage> {
    const input = buildShardQuery(query);
    if (!input) return { items: [], itemsRead: 0 };
    // By the lean path (./dynamo-sender): a listing page sends up to a few dozen queries (docs/performance.md).
    const send = (signal: AbortSignal | undefined) =>
      this.limit(async () => (await this.clients.calls.send('Query', input, signal)) as QueryAnswer);
    const hedge = this.hedge;
    let hedged = false;
    let attempts = 0;
    const label = { operation: 'query', table: query.table } as const;
    const response = await withRetries(`a query of shard ${query.shardKey}`, label, context, async (signal) => {
      if (!hedge) return send(signal);
      const group = query.latencyGroup ?? query.index;
      const started = performance.now();
      // A retry follows a failure (a throttle, mostly): it backs off and is never hedged.
      const delay = attempts++ > 0 ? undefined : hedge.delayFor(group);
      const answer = await hedgedSend(send, signal, delay, () => hedge.trySpend(group));
      hedge.answered(group, performance.now() - started);
      if (answer.hedged) {
        hedged = true;
        context.observer?.hedged?.(answer.hedgeWon);
      }
      return answer.value;
    });
    this.answeredAt.set(query.table, Date.now());
    const read = (response.Items ?? []).map(recordFromDynamoJson);
    const items = read.filter((item) => {
      const key = item[query.indexKeyAttribute];
      return typeof key === 'string' && inRange(key, query.range);
    });
    // Once the read has passed the far end of the range, nothing more of this shard belongs to it.
    const resumeAfter = passedFarEnd(read, query) ? undefined : response.LastEvaluatedKey?.[query.indexKeyAttribute]?.S;
    const units = response.ConsumedCapacity?.CapacityUnits;
    return {
      items,
      itemsRead: read.length,
      ...(typeof resumeAfter === 'string' && { resumeAfter }),
      ...(units !== undefined && { consumedCapacity: units }),
      ...(hedged ? { hedged: true } : {}),
    };
  }

  putItem(table: string, record: JsonObject, context: CallContext, guard: WriteGuard): Promise<WriteOutcome> {
    const key = Object.fromEntries(guard.keyAttributes.map((name) => [name, record[name]]));
    const client = this.client(context, 'put', table);
    return guardedWrite(client, 'PutItem', table, key, guard, () => ({ Item: recordToDynamoJson(record) }));
  }

  updateItem({ table, key, set, remove, guard }: ItemUpdate, context: CallContext): Promise<WriteOutcome> {
    return guardedWrite(this.client(context, 'update', table), 'UpdateItem', table, key, guard, (builder) => ({
      Key: recordToDynamoJson(key),
      UpdateExpression: builder.update(set, remove),
    }));
  }

  deleteItem(table: string, key: JsonObject, context: CallContext, guard: WriteGuard): Promise<WriteOutcome> {
    const client = this.client(context, 'delete', table);
    return guardedWrite(client, 'DeleteItem', table, key, guard, () => ({ Key: recordToDynamoJson(key) }));
  }

  batchGet(
    table: string,
    keys: readonly JsonObject[],
    context: CallContext,
    options?: ReadOptions,
  ): Promise<JsonObject[]> {
    return batchGetItems(this.client(context, 'batch_get', table), table, keys, context, options);
  }

  queryKeyRange(range: KeyRange, context: CallContext): Promise<JsonObject[]> {
    return queryKeyRange(this.client(context, 'query', range.table), range);
  }

  async getItem(
    table: string,
    key: JsonObject,
    context: CallContext,
    options: ReadOptions = {},
  ): Promise<JsonObject | undefined> {
    const input = { TableName: table, Key: recordToDynamoJson(key), ...readParameters(options) };
    const { calls, send } = this.client(context, 'get', table);
    const { Item: item } = await send('a read', (signal) => calls.send('GetItem', input, signal));
    return item ? recordFromDynamoJson(item as Record<string, AttributeJson>) : undefined;
  }

  scanPage(request: ScanRequest, context: CallContext): Promise<ScanPage> {
    const send = this.sender(context, 'scan', request.table);
    return send(`a scan of ${request.table} (segment ${request.segment})`, (signal) =>
      sendScan(this.clients.doc, request, signal),
    );
  }

  /** Safe to retry: it sets fixed values under conditions a landed first attempt leaves true, or fail harmlessly. */
  updateAttributes(update: AttributeUpdate, context: CallContext): Promise<UpdateOutcome> {
    const send = this.sender(context, 'update', update.table);
    return send('a conditional update', (signal) => sendUpdate(this.clients.doc, update, signal));
  }

  /** DynamoDB's item count of the table (refreshed by DynamoDB about every six hours: an estimate). */
  async approximateItemCount(table: string, context: CallContext): Promise<number> {
    const send = this.sender(context, 'describe', table);
    const response = await send('a table description', (signal) => this.describe(table, signal));
    return response.Table?.ItemCount ?? 0;
  }

  /**
   * A query or a check answered within the last second says the table answers; else one DescribeTable, outside the
   * in-flight limit: a health probe must not queue behind the very work whose overload it is asked about.
   */
  async ping(table: string, context: CallContext): Promise<void> {
    if (Date.now() - (this.answeredAt.get(table) ?? Number.NEGATIVE_INFINITY) < RECENT_ANSWER_MS) return;
    await withRetries('a table check', { operation: 'describe', table }, context, (signal) =>
      this.describe(table, signal),
    );
    // Its own check counts too: an idle service's probes make one DescribeTable a second, not one each.
    this.answeredAt.set(table, Date.now());
  }

  /** The lean sender, counting consumed capacity when the request counts it, and its sender of retried calls. */
  private client(context: CallContext, operation: RetryOperation, table: string): LeanClient {
    return {
      calls: countingSender(this.clients.calls, context.capacity),
      send: this.sender(context, operation, table),
    };
  }

  /**
   * Sends one request's calls: retried, within the in-flight limit, a missing table named. Puts, updates
   * and deletes carry an item someone else made (the caller's, another writer's): DynamoDB refusing one
   * is the item's fault (./dynamo-errors).
   */
  private sender(context: CallContext, operation: RetryOperation, table: string): Send {
    const label = { operation, table, carriesItem: WRITES.has(operation) };
    return (what, run) => withRetries(what, label, context, (signal) => this.limit(() => run(signal)));
  }

  private describe(table: string, abortSignal: AbortSignal | undefined) {
    return this.clients.raw.send(new DescribeTableCommand({ TableName: table }), { abortSignal });
  }
}

const RECENT_ANSWER_MS = 1000;

const WRITES: ReadonlySet<RetryOperation> = new Set(['put', 'update', 'delete']);
