import { ShardlineError } from '../core/errors';
import type { ConsumedCapacity } from './consumed-capacity';
import { isDynamoError, STORAGE_UNAVAILABLE, translatedError, type RefusedCall } from './dynamo-errors';

/** Per-request limits on DynamoDB work: an abort signal and an absolute deadline. */
export interface CallContext {
  readonly signal?: AbortSignal;
  /** Epoch milliseconds after which no new attempt starts. */
  readonly deadline?: number;
  /** Told of every retry (metrics, the request log); unset where nothing listens. */
  readonly observer?: RetryObserver;
  /** Adds up the capacity the calls consumed (item routes' `x-consumed-*` headers); uncounted when unset. */
  readonly capacity?: ConsumedCapacity;
}

export type RetryReason = 'throttled' | 'unprocessed' | 'server_error' | 'network';

/** What DynamoDB call was retried (the label of `shardline_dynamodb_retries_total`). */
export type RetryOperation =
  | 'query'
  | 'put'
  | 'get'
  | 'batch_get'
  | 'delete'
  | 'scan'
  | 'update'
  | 'describe'
  | 'create_table'
  | 'update_table'
  | 'describe_stream'
  | 'get_shard_iterator'
  | 'get_records';

/** One call as its retries report it and as its refusals are translated. */
export interface CallLabel extends RefusedCall {
  readonly operation: RetryOperation;
}

export interface RetryObserver {
  /** One more attempt is about to be made. */
  retried(operation: RetryOperation, reason: RetryReason): void;
  /** A read was sent a second time because the first was slow; `won` when the second answered first. */
  hedged?(won: boolean): void;
}

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly random?: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 25, maxDelayMs: 2000 };

/** Sends one call with its retries, under one request's context. */
export type Send = <T>(what: string, run: (signal: AbortSignal | undefined) => Promise<T>) => Promise<T>;

const THROTTLES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
]);
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND']);

interface AwsLikeError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: unknown;
  cause?: unknown;
}

export function retryReason(error: unknown): RetryReason {
  if (isThrottle(error)) return 'throttled';
  const status = (error as AwsLikeError | undefined)?.$metadata?.httpStatusCode;
  return status !== undefined && status >= 500 ? 'server_error' : 'network';
}

/** Throttles, 5xx answers and dropped connections are worth another attempt; 4xx answers are not. */
export function isRetryable(error: unknown): boolean {
  const e = error as AwsLikeError | undefined;
  if (!e || typeof e !== 'object') return false;
  if (isDynamoError(e, STORAGE_UNAVAILABLE)) return false;
  if (e.name && THROTTLES.has(e.name)) return true;
  if (e.$retryable) return true;
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500) return true;
  // A proxy or load balancer in front of the engine: Too Many Requests, Request Timeout.
  if (status === 429 || status === 408) return true;
  if (status !== undefined && status >= 400) return false;
  if (e.code && NETWORK_CODES.has(e.code)) return true;
  // An answer that is not DynamoDB's JSON (truncated, a proxy's HTML page) fails to parse; every
  // call shardline makes is idempotent (puts of whole items, deletes, reads), so asking again is safe.
  if (e.name === 'SyntaxError') return true;
  // Node's HTTP parser rejecting a garbled answer (HPE_*): the connection was bad, not the request.
  if (e.code?.startsWith('HPE_') || e.code?.startsWith('UND_ERR_')) return true;
  if (e.name === 'TimeoutError' || e.name === 'RequestTimeout') return true;
  return e.cause !== undefined && e.cause !== error && isRetryable(e.cause);
}

export function isThrottle(error: unknown): boolean {
  const e = error as AwsLikeError | undefined;
  return (e?.name !== undefined && THROTTLES.has(e.name)) || e?.$metadata?.httpStatusCode === 429;
}

/**
 * Runs `attempt` until it succeeds, fails for good, runs out of attempts or reaches the deadline
 * (then `unavailable`, 503, or `timeout`, 504). Waits use `backoffDelay`; each retry is reported
 * under `label.operation`. An error that ends it is translated once (./dynamo-errors).
 */
export async function withRetries<T>(
  what: string,
  label: CallLabel,
  context: CallContext,
  attempt: (signal: AbortSignal | undefined) => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
  for (let n = 0; ; n++) {
    if (context.signal?.aborted || (context.deadline !== undefined && Date.now() >= context.deadline)) {
      throw timeoutError(what);
    }
    try {
      return await attempt(context.signal);
    } catch (error) {
      if (context.signal?.aborted) throw timeoutError(what);
      if (!isRetryable(error)) throw translatedError(error, label);
      if (n + 1 >= policy.maxAttempts) throw unavailable(what, error);
      const wait = backoffDelay(n, policy);
      if (context.deadline !== undefined && Date.now() + wait >= context.deadline) throw timeoutError(what);
      context.observer?.retried(label.operation, retryReason(error));
      await sleep(wait, context.signal);
    }
  }
}

/** What an SDK command answers. */
type AnswerOf<C> = C extends { resolveMiddleware(...args: never[]): (...args: never[]) => Promise<{ output: infer O }> }
  ? O
  : never;

/** Sends one SDK command (DynamoDB's, the document client's, the Streams') by `withRetries`. */
export function sendRetried<C>(
  client: { send(command: NoInfer<C>, options: { abortSignal?: AbortSignal }): Promise<unknown> },
  command: C,
  what: string,
  label: CallLabel,
  context: CallContext = {},
  policy?: RetryPolicy,
): Promise<AnswerOf<C>> {
  const attempt = (abortSignal: AbortSignal | undefined) =>
    client.send(command, { abortSignal }) as Promise<AnswerOf<C>>;
  return withRetries(what, label, context, attempt, policy);
}

/** Capped exponential backoff with full jitter: it spreads many callers' retries instead of synchronizing them. */
export function backoffDelay(n: number, policy: RetryPolicy): number {
  return (policy.random ?? Math.random)() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** n);
}

/** Retries ran out: a 503 whose `reason` is `throttled` (capacity, a hot partition) or `failed` (5xx, resets). */
export function unavailable(what: string, cause: unknown): ShardlineError {
  const name = (cause as AwsLikeError | undefined)?.name ?? 'Error';
  return new ShardlineError('unavailable', `DynamoDB did not complete ${what} after retries (${name})`, {
    retryable: true,
    reason: isThrottle(cause) ? 'throttled' : 'failed',
  });
}

export function timeoutError(what: string): ShardlineError {
  return new ShardlineError('timeout', `the request deadline passed during ${what}`);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
