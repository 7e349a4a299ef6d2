import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type pLimit from 'p-limit';
import type { JsonObject } from '../core/item';
import {
  backoffDelay,
  isRetryable,
  isThrottle,
  retryReason,
  sleep,
  DEFAULT_RETRY_POLICY,
  isStorageUnavailable,
  storageUnavailable,
  type CallContext,
  type RetryPolicy,
  type RetryReason,
} from './retry';
import type { BatchOutcome } from './store';

/** DynamoDB's BatchWriteItem takes at most 25 requests. */
export const BATCH_CHUNK = 25;

type Limiter = ReturnType<typeof pLimit>;
type ItemError = BatchOutcome['failed'][number]['error'];

interface Pending {
  readonly index: number;
  readonly record: JsonObject;
}

/**
 * Writes `records` in chunks of 25, chunks in parallel under `limit`, and accounts
 * for every input index: each ends up in `written` (DynamoDB confirmed it) or in
 * `failed` with a reason — never both, never neither.
 *
 * Items DynamoDB hands back as `UnprocessedItems` are retried until written or the
 * deadline passes: an answer that wrote some items resets the backoff, so a batch
 * that keeps making progress is never cut short by the attempt count. Chunks that
 * fail whole with a retryable error (throttles, 5xx, resets) are retried with
 * capped exponential backoff and full jitter; `policy.maxAttempts` attempts in a
 * row that write nothing give up on the chunk (`unavailable`). Items of a chunk
 * DynamoDB refuses (a 4xx other than a throttle) fail as `rejected`. Items still
 * pending at the deadline fail as `timeout`; when their last call was cut off in
 * flight, DynamoDB may have written them (the message says so) — a retry of the
 * same put is harmless.
 */
export async function batchPut(
  doc: DynamoDBDocumentClient,
  limit: Limiter,
  table: string,
  keyNames: readonly string[],
  records: readonly JsonObject[],
  context: CallContext,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { written: [], failed: [] };
  const chunks: Pending[][] = [];
  for (let start = 0; start < records.length; start += BATCH_CHUNK) {
    chunks.push(records.slice(start, start + BATCH_CHUNK).map((record, i) => ({ index: start + i, record })));
  }
  await Promise.all(chunks.map((chunk) => writeChunk(chunk)));
  outcome.written.sort((a, b) => a - b);
  outcome.failed.sort((a, b) => a.index - b.index);
  return outcome;

  async function writeChunk(chunk: Pending[]): Promise<void> {
    let pending = chunk;
    let fruitless = 0; // attempts in a row that wrote nothing
    let error: ItemError = { code: 'unavailable', message: 'not written' };
    while (pending.length > 0) {
      if (expired(context)) {
        error = timedOut(false);
        break;
      }
      let progressed = false;
      let retried: RetryReason | undefined;
      try {
        const response = await limit(() =>
          doc.send(
            new BatchWriteCommand({
              RequestItems: { [table]: pending.map(({ record }) => ({ PutRequest: { Item: record } })) },
            }),
            { abortSignal: context.signal },
          ),
        );
        const unprocessed = response.UnprocessedItems?.[table] ?? [];
        const left = new Set(unprocessed.map((request) => keyOf(request.PutRequest?.Item ?? {}, keyNames)));
        const stillPending: Pending[] = [];
        for (const entry of pending) {
          if (left.has(keyOf(entry.record, keyNames))) stillPending.push(entry);
          else outcome.written.push(entry.index);
        }
        progressed = stillPending.length < pending.length;
        pending = stillPending;
        retried = 'unprocessed';
        error = { code: 'unavailable', message: 'DynamoDB kept leaving the item unprocessed (throttled)' };
      } catch (cause) {
        if (context.signal?.aborted) {
          error = timedOut(true);
          break;
        }
        if (!isRetryable(cause)) {
          // Only what DynamoDB answered is DynamoDB's refusal; anything else failed here, before it.
          error = !isServiceError(cause)
            ? { code: 'internal', message: 'internal error: the items were not sent to DynamoDB' }
            : isStorageUnavailable(cause)
              ? { code: 'storage_unavailable', message: storageUnavailable(cause).message }
              : { code: 'rejected', message: `DynamoDB refused the write: ${String(cause.message).slice(0, 300)}` };
          break;
        }
        retried = retryReason(cause);
        const why = isThrottle(cause) ? 'kept throttling' : 'kept failing';
        error = { code: 'unavailable', message: `DynamoDB ${why} the write (${(cause as Error).name})` };
      }
      if (pending.length === 0) break;
      fruitless = progressed ? 0 : fruitless + 1;
      if (fruitless >= policy.maxAttempts) break;
      const wait = backoffDelay(fruitless, policy);
      if (expired(context, wait)) {
        error = timedOut(false);
        break;
      }
      if (retried)
        context.observer?.retried(
          'batch_write',
          retried,
          pending.map(({ record }) => record),
        );
      await sleep(wait, context.signal);
    }
    for (const { index } of pending) outcome.failed.push({ index, error });
  }
}

function timedOut(inFlight: boolean): ItemError {
  return inFlight
    ? {
        code: 'timeout',
        message: 'the request deadline cut off the write in flight; it may or may not have been written',
      }
    : { code: 'timeout', message: 'the request deadline passed before the item was written' };
}

function expired(context: CallContext, wait = 0): boolean {
  return context.signal?.aborted === true || (context.deadline !== undefined && Date.now() + wait >= context.deadline);
}

function keyOf(record: Record<string, unknown>, keyNames: readonly string[]): string {
  return JSON.stringify(keyNames.map((name) => record[name]));
}

/** An error DynamoDB (or the engine) answered: the SDK marks those with `$fault`. */
function isServiceError(error: unknown): error is Error {
  return error instanceof Error && typeof (error as { $fault?: unknown }).$fault === 'string';
}
