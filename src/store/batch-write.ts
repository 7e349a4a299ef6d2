import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type pLimit from 'p-limit';
import type { JsonObject } from '../core/item';
import { isRetryable, sleep, DEFAULT_RETRY_POLICY, type CallContext, type RetryPolicy } from './retry';
import type { BatchOutcome } from './store';

/** DynamoDB's BatchWriteItem takes at most 25 requests. */
export const BATCH_CHUNK = 25;

type Limiter = ReturnType<typeof pLimit>;

interface Pending {
  readonly index: number;
  readonly record: JsonObject;
}

/**
 * Writes `records` in chunks of 25, chunks in parallel under `limit`. Items that
 * DynamoDB hands back as `UnprocessedItems`, and whole chunks that fail with a
 * retryable error, are retried with capped exponential backoff and full jitter
 * until written, out of attempts, or past the deadline. Items are matched back
 * by their primary key, so every input index ends up written or failed — never lost.
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
    let lastError: { code: string; message: string } = { code: 'unavailable', message: 'not written' };
    const random = policy.random ?? Math.random;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) {
        const wait = random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
        if (attempt >= policy.maxAttempts || pastDeadline(context, wait)) break;
        await sleep(wait, context.signal);
      }
      if (context.signal?.aborted) break;
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
        const stillPending = pending.filter(({ record }) => left.has(keyOf(record, keyNames)));
        const unwritten = new Set(stillPending.map(({ index }) => index));
        for (const { index } of pending) if (!unwritten.has(index)) outcome.written.push(index);
        pending = stillPending;
        lastError = { code: 'unavailable', message: 'DynamoDB left the item unprocessed (throttled) after retries' };
      } catch (error) {
        if (!isRetryable(error)) {
          lastError = { code: 'rejected', message: `DynamoDB refused the write: ${(error as Error).message}` };
          break;
        }
        lastError = { code: 'unavailable', message: `DynamoDB failed the write after retries (${(error as Error).name})` };
      }
    }
    if (pending.length > 0 && (context.signal?.aborted || pastDeadline(context, 0))) {
      lastError = { code: 'timeout', message: 'the request deadline passed before the item was written' };
    }
    for (const { index } of pending) outcome.failed.push({ index, error: lastError });
  }
}

function pastDeadline(context: CallContext, wait: number): boolean {
  return context.deadline !== undefined && Date.now() + wait >= context.deadline;
}

function keyOf(record: Record<string, unknown>, keyNames: readonly string[]): string {
  return JSON.stringify(keyNames.map((name) => record[name]));
}
