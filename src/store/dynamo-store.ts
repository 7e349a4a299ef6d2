import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import pLimit from 'p-limit';
import type { HedgePolicy } from '../core/hedge-policy';
import { inRange } from '../core/key-range';
import type { JsonObject } from '../core/item';
import { batchGetItems } from './batch-get';
import { ExpressionBuilder } from './conditions';
import { guardedDelete, guardedPut, guardedUpdate } from './item-writes';
import type { DynamoClients } from './client';
import { DEFAULT_RETRY_POLICY, withRetries, type CallContext, type RetryOperation, type RetryPolicy } from './retry';
import { hedgedSend } from './hedged-send';
import { buildShardQuery, passedFarEnd, type ShardQuery } from './shard-query';
import { onTable } from './missing-table';
import {
  sendScan,
  sendUpdate,
  type AttributeUpdate,
  type ScanPage,
  type ScanRequest,
  type UpdateOutcome,
} from './maintenance';
import type { ItemUpdate, ReadOptions, ShardPage, Store, WriteGuard, WriteOutcome } from './store';
import { recordFromSdk, recordToSdk } from './values';
import { recordFromDynamoJson } from './dynamo-json';

export interface DynamoStoreOptions {
  /** Most DynamoDB requests in flight at once from this process. */
  readonly maxInFlight?: number;
  readonly retry?: RetryPolicy;
  /** Hedges slow shard queries (reads only); off when unset. */
  readonly hedge?: HedgePolicy;
}

/**
 * The Store over DynamoDB (or anything that speaks its API). Items go through the exact
 * document client: numbers are their decimal text both ways (see ./values).
 */
export class DynamoStore implements Store {
  private readonly doc: DynamoDBDocumentClient;
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly retry: RetryPolicy;
  /** When a query of each table last answered: proof enough that the table answers. */
  private readonly answeredAt = new Map<string, number>();

  constructor(
    private readonly clients: DynamoClients,
    private readonly options: DynamoStoreOptions = {},
  ) {
    this.doc = clients.exact;
    this.limit = pLimit(options.maxInFlight ?? 64);
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
  }

  async queryShard(query: ShardQuery, context: CallContext): Promise<ShardPage> {
    const input = buildShardQuery(query);
    if (!input) return { items: [], itemsRead: 0 };
    const send = (signal: AbortSignal | undefined) => this.clients.queries.send(input, signal);
    const hedge = this.options.hedge;
    let hedged = false;
    let attempts = 0;
    const response = hedge
      ? await onTable(
          query.table,
          withRetries(
            `a query of shard ${query.shardKey}`,
            async (signal) => {
              const group = query.latencyGroup ?? query.index;
              const started = performance.now();
              // A retry follows a failure (a throttle, mostly): it backs off and is never hedged.
              const delay = attempts++ > 0 ? undefined : hedge.delayFor(group);
              const answer = await hedgedSend((own) => this.limit(() => send(own)), signal, delay, hedge);
              hedge.answered(group, performance.now() - started);
              if (answer.hedged) {
                hedged = true;
                context.observer?.hedged?.(answer.hedgeWon);
              }
              return answer.value;
            },
            context,
            this.retry,
            'query',
          ),
        )
      : await this.call(`a query of shard ${query.shardKey}`, 'query', context, send, query.table);
    this.answeredAt.set(query.table, Date.now());
    const read = (response.Items ?? []).map(recordFromDynamoJson);
    const items: JsonObject[] = [];
    for (const item of read) {
      const key = item[query.indexKeyAttribute];
      if (typeof key === 'string' && inRange(key, query.range)) items.push(item);
    }
    // Once the read has passed the far end of the range, nothing more of this shard belongs to it.
    const resumeAfter = passedFarEnd(read, query) ? undefined : response.LastEvaluatedKey?.[query.indexKeyAttribute]?.S;
    return {
      items,
      itemsRead: read.length,
      ...(typeof resumeAfter === 'string' && { resumeAfter }),
      ...(response.ConsumedCapacity?.CapacityUnits !== undefined && {
        consumedCapacity: response.ConsumedCapacity.CapacityUnits,
      }),
      ...(hedged ? { hedged: true } : {}),
    };
  }

  putItem(table: string, record: JsonObject, context: CallContext, guard: WriteGuard): Promise<WriteOutcome> {
    return guardedPut(this.doc, this.sender(context, 'put', table), table, record, guard);
  }

  updateItem(update: ItemUpdate, context: CallContext): Promise<WriteOutcome> {
    return guardedUpdate(this.doc, this.sender(context, 'update', update.table), update);
  }

  deleteItem(table: string, key: JsonObject, context: CallContext, guard: WriteGuard): Promise<WriteOutcome> {
    return guardedDelete(this.doc, this.sender(context, 'delete', table), table, key, guard);
  }

  batchGet(
    table: string,
    keys: readonly JsonObject[],
    context: CallContext,
    options?: ReadOptions,
  ): Promise<JsonObject[]> {
    return batchGetItems(this.doc, this.sender(context, 'batch_get', table), table, keys, context, this.retry, options);
  }

  async getItem(
    table: string,
    key: JsonObject,
    context: CallContext,
    options: ReadOptions = {},
  ): Promise<JsonObject | undefined> {
    const builder = new ExpressionBuilder();
    const projection = options.attributes?.map((attribute) => builder.name(attribute)).join(', ');
    const response = await this.call(
      'a read',
      'get',
      context,
      (abortSignal) =>
        this.doc.send(
          new GetCommand({
            TableName: table,
            Key: recordToSdk(key),
            ...(options.consistent && { ConsistentRead: true }),
            ...(projection && { ProjectionExpression: projection, ExpressionAttributeNames: builder.names }),
          }),
          { abortSignal },
        ),
      table,
    );
    return response.Item && recordFromSdk(response.Item);
  }

  /** One page of one segment of a parallel scan (retried like every call). */
  scanPage(request: ScanRequest, context: CallContext): Promise<ScanPage> {
    return this.call(
      `a scan of ${request.table} (segment ${request.segment})`,
      'scan',
      context,
      (signal) => sendScan(this.doc, request, signal),
      request.table,
    );
  }

  /**
   * A conditional change of one item's attributes. Safe to retry: it sets fixed values
   * under conditions that a landed first attempt leaves true, or that fail harmlessly.
   */
  updateAttributes(update: AttributeUpdate, context: CallContext): Promise<UpdateOutcome> {
    return this.call(
      'a conditional update',
      'update',
      context,
      (signal) => sendUpdate(this.doc, update, signal),
      update.table,
    );
  }

  /** DynamoDB's item count of the table (refreshed by DynamoDB about every six hours: an estimate). */
  async approximateItemCount(table: string, context: CallContext): Promise<number> {
    const response = await this.call(
      'a table description',
      'describe',
      context,
      (abortSignal) => this.clients.raw.send(new DescribeTableCommand({ TableName: table }), { abortSignal }),
      table,
    );
    return response.Table?.ItemCount ?? 0;
  }

  /**
   * Whether the table answers. A query of it answered within the last second says so already;
   * otherwise one DescribeTable, outside the in-flight limit: a health probe must not queue
   * behind the very work whose overload it is asked about.
   */
  async ping(table: string, context: CallContext): Promise<void> {
    if (Date.now() - (this.answeredAt.get(table) ?? Number.NEGATIVE_INFINITY) < RECENT_ANSWER_MS) return;
    await onTable(
      table,
      withRetries(
        'a table check',
        (abortSignal) => this.clients.raw.send(new DescribeTableCommand({ TableName: table }), { abortSignal }),
        context,
        this.retry,
        'describe',
      ),
    );
  }

  /** `call` bound to one request's context, for the helpers that send several calls. */
  private sender(context: CallContext, operation: RetryOperation, table: string) {
    return <T>(what: string, run: (signal: AbortSignal | undefined) => Promise<T>) =>
      this.call(what, operation, context, run, table);
  }

  private call<T>(
    what: string,
    operation: RetryOperation,
    context: CallContext,
    send: (signal: AbortSignal | undefined) => Promise<T>,
    table: string,
  ): Promise<T> {
    return onTable(
      table,
      withRetries(what, (signal) => this.limit(() => send(signal)), context, this.retry, operation),
    );
  }
}

const RECENT_ANSWER_MS = 1000;
