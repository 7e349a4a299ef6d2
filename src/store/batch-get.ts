import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JsonObject } from '../core/item';
import { ExpressionBuilder } from './conditions';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  sleep,
  timeoutError,
  unavailable,
  withRetries,
  type CallContext,
  type RetryPolicy,
  type Send,
} from './retry';
import type { ReadOptions } from './store';
import { recordToDynamoJson } from './attribute-json';
import { recordFromDynamoJson, type AttributeJson } from './dynamo-json';
import type { LeanClient } from './consumed-capacity';

type Key = Record<string, unknown>;

/** What one BatchGetItem answered: items by table, and the keys left for another call. */
interface BatchAnswer {
  readonly Responses?: Record<string, Key[]>;
  readonly UnprocessedKeys?: Record<string, { Keys?: Key[] }>;
}

/** Sends one BatchGetItem by the lean path (./dynamo-sender), keys as they are (wire JSON). */
type BatchGetCall = (requestItems: Record<string, TableRead>, signal: AbortSignal | undefined) => Promise<BatchAnswer>;

/** One table's part of a BatchGetItem (DynamoDB's `KeysAndAttributes`). */
export interface TableRead {
  readonly Keys: Key[];
  readonly ConsistentRead?: boolean;
  readonly ProjectionExpression?: string;
  readonly ExpressionAttributeNames?: Record<string, string>;
}

export interface BatchRead {
  /** Names the read in errors (`a read of the shard maps`). */
  readonly what: string;
  readonly context: CallContext;
  /** DEFAULT_RETRY_POLICY when unset. */
  readonly policy?: RetryPolicy;
  /** Sends one call with its retries (by default `withRetries`); it must retry under `policy`. */
  readonly send?: Send;
}

/**
 * The items of one BatchGetItem (up to 100 keys, of one table or several), asked again for the keys
 * DynamoDB leaves unprocessed (throttled, or past 16 MB) until every key is answered. Resends back off as
 * retries do; an answer that returns something resets the backoff; `policy.maxAttempts` fruitless answers
 * in a row give up as a throttled `unavailable`, and a deadline the wait would pass becomes `timeout`.
 */
export async function batchGetAll(
  doc: DynamoDBDocumentClient | BatchGetCall,
  requests: Readonly<Record<string, TableRead>>,
  read: BatchRead,
): Promise<Key[]> {
  const { what, context, policy = DEFAULT_RETRY_POLICY } = read;
  const send: Send = read.send ?? ((name, run) => withRetries(name, { operation: 'batch_get' }, context, run, policy));
  const found: Key[] = [];
  let pending = Object.fromEntries(Object.entries(requests).filter(([, request]) => request.Keys.length > 0));
  for (let fruitless = 0; Object.keys(pending).length > 0; ) {
    const request = pending;
    const response: BatchAnswer = await send(what, (abortSignal) =>
      typeof doc === 'function'
        ? doc(request, abortSignal)
        : doc.send(new BatchGetCommand({ RequestItems: request }), { abortSignal }),
    );
    const items = Object.values(response.Responses ?? {}).flat();
    found.push(...items);
    pending = {};
    for (const [table, unprocessed] of Object.entries(response.UnprocessedKeys ?? {})) {
      const keys = (unprocessed.Keys ?? []) as Key[];
      // The table's own read again (consistency, projection), for the keys still to answer.
      if (keys.length > 0) pending[table] = { ...requests[table]!, Keys: keys };
    }
    if (Object.keys(pending).length === 0) break;
    fruitless = items.length > 0 || keyCount(pending) < keyCount(request) ? 0 : fruitless + 1;
    if (fruitless >= policy.maxAttempts) {
      // Keys left unprocessed call after call: DynamoDB throttling the reads, named as its own throttle is.
      throw unavailable(what, { name: 'ThrottlingException' });
    }
    const wait = backoffDelay(fruitless, policy);
    if (context.deadline !== undefined && Date.now() + wait >= context.deadline) throw timeoutError(what);
    context.observer?.retried('batch_get', 'unprocessed');
    await sleep(wait, context.signal);
  }
  return found;
}

/** A read's consistency and projection. An attribute named twice is projected once: DynamoDB refuses overlaps. */
export function readParameters(options: ReadOptions) {
  const builder = new ExpressionBuilder();
  const placeholders = options.attributes && new Set(options.attributes.map((attribute) => builder.name(attribute)));
  const projection = placeholders && [...placeholders].join(', ');
  return {
    ...(options.consistent && { ConsistentRead: true }),
    ...(projection && { ProjectionExpression: projection, ExpressionAttributeNames: builder.names }),
  };
}

/** Up to 100 keys of one table; unprocessed keys go out as they came back (the exact client keeps numbers exact). */
export async function batchGetItems(
  { calls, send }: LeanClient,
  table: string,
  keys: readonly JsonObject[],
  context: CallContext,
  options: ReadOptions = {},
): Promise<JsonObject[]> {
  if (keys.length === 0) return [];
  const request: TableRead = { Keys: keys.map(recordToDynamoJson), ...readParameters(options) };
  const call = async (RequestItems: Record<string, TableRead>, signal: AbortSignal | undefined) =>
    (await calls.send('BatchGetItem', { RequestItems }, signal)) as BatchAnswer;
  const read = { what: 'a batch read', context, send };
  const items = await batchGetAll(call, { [table]: request }, read);
  return items.map((item) => recordFromDynamoJson(item as Record<string, AttributeJson>));
}

function keyCount(requests: Readonly<Record<string, TableRead>>): number {
  return Object.values(requests).reduce((sum, request) => sum + request.Keys.length, 0);
}
