import { ShardlineError } from '../core/errors';

/** Per-request limits on DynamoDB work: an abort signal and an absolute deadline. */
export interface CallContext {
  readonly signal?: AbortSignal;
  /** Epoch milliseconds after which no new attempt starts. */
  readonly deadline?: number;
}

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly random?: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 25, maxDelayMs: 2000 };

const THROTTLES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
]);
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET']);

interface AwsLikeError {
  name?: string;
  code?: string;
  $fault?: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: unknown;
  cause?: unknown;
}

/** Throttles, 5xx answers and dropped connections are worth another attempt; 4xx answers are not. */
export function isRetryable(error: unknown): boolean {
  const e = error as AwsLikeError | undefined;
  if (!e || typeof e !== 'object') return false;
  if (e.name && THROTTLES.has(e.name)) return true;
  if (e.$retryable) return true;
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500) return true;
  if (status !== undefined && status >= 400) return false;
  if (e.code && NETWORK_CODES.has(e.code)) return true;
  if (e.name === 'TimeoutError' || e.name === 'RequestTimeout') return true;
  return e.cause !== undefined && e.cause !== error && isRetryable(e.cause);
}

export function isThrottle(error: unknown): boolean {
  const name = (error as AwsLikeError | undefined)?.name;
  return name !== undefined && THROTTLES.has(name);
}

/**
 * Runs `attempt` until it succeeds, fails with a non-retryable error, runs out of
 * attempts or reaches the deadline. Waits between attempts use capped exponential
 * backoff with full jitter (a uniform wait in [0, min(cap, base * 2^n)]), which
 * spreads retries of many concurrent callers instead of synchronizing them.
 * Exhausted retries become `unavailable` (503); the deadline becomes `timeout` (504).
 */
export async function withRetries<T>(
  what: string,
  attempt: (signal: AbortSignal | undefined) => Promise<T>,
  context: CallContext = {},
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
  const random = policy.random ?? Math.random;
  for (let n = 0; ; n++) {
    throwIfExpired(what, context);
    try {
      return await attempt(context.signal);
    } catch (error) {
      if (context.signal?.aborted) throw timeoutError(what);
      if (!isRetryable(error)) throw error;
      if (n + 1 >= policy.maxAttempts) throw unavailable(what, error);
      const wait = random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** n);
      if (context.deadline !== undefined && Date.now() + wait >= context.deadline) throw timeoutError(what);
      await sleep(wait, context.signal);
    }
  }
}

export function unavailable(what: string, cause: unknown): ShardlineError {
  const name = (cause as AwsLikeError | undefined)?.name ?? 'Error';
  return new ShardlineError('unavailable', `DynamoDB did not complete ${what} after retries (${name})`, {
    retryable: true,
  });
}

export function timeoutError(what: string): ShardlineError {
  return new ShardlineError('timeout', `the request deadline passed during ${what}`);
}

function throwIfExpired(what: string, context: CallContext): void {
  if (context.signal?.aborted || (context.deadline !== undefined && Date.now() >= context.deadline)) {
    throw timeoutError(what);
  }
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
