import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { ShardlineError } from '../../../src/core/errors';
import { DecisionLog } from '../../../src/store/decision-log';
import { isConditionFailed, isDynamoError } from '../../../src/store/dynamo-errors';
import { LoadStore } from '../../../src/store/load-store';
import { type CallLabel, DEFAULT_RETRY_POLICY, withRetries } from '../../../src/store/retry';

const named = (name: string, status = 400) =>
  Object.assign(new Error(`${name} said no`), { name, $metadata: { httpStatusCode: status } });

/** How one call that fails once with `error` ends, under `label`. */
function failing(error: Error, label: CallLabel) {
  return withRetries('a test call', label, {}, () => Promise.reject(error), DEFAULT_RETRY_POLICY).catch(
    (caught: unknown) => caught,
  );
}

describe("the store's translation of DynamoDB's errors", () => {
  it('makes a missing table the 503 table_missing, naming it when the call did', async () => {
    const missing = named('ResourceNotFoundException');
    expect(await failing(missing, { operation: 'query', table: 'albums' })).toEqual(
      new ShardlineError('table_missing', 'table "albums" is missing or not active', {
        tables: ['albums'],
        retryable: true,
      }),
    );
    expect(await failing(missing, { operation: 'get' })).toEqual(
      new ShardlineError('table_missing', 'the table is missing or not active', { retryable: true }),
    );
  });

  it("blames the item for a refused write of someone's item, shardline for a refusal of its own call", async () => {
    const refusal = named('ValidationException');
    const write = await failing(refusal, { operation: 'put', table: 't', carriesItem: true });
    expect(write).toEqual(new ShardlineError('invalid_item', 'DynamoDB refused the item: ValidationException said no'));
    const own = await failing(refusal, { operation: 'query', table: 't' });
    expect(own).toEqual(new ShardlineError('internal', 'ValidationException said no'));
    expect((own as Error).cause).toBe(refusal);
    const tooBig = named('ItemCollectionSizeLimitExceededException');
    expect(await failing(tooBig, { operation: 'update', carriesItem: true })).toMatchObject({ code: 'invalid_item' });
  });

  it("names the embedded engine's full disk, an aborted call and a failed condition; others are internal", async () => {
    const full = named('StorageUnavailableException', 503);
    expect(await failing(full, { operation: 'put' })).toMatchObject({
      code: 'storage_unavailable',
      details: { retryable: true, retryAfterSeconds: 5 },
    });
    const aborted = Object.assign(new Error('aborted'), { name: 'AbortError' });
    expect(await failing(aborted, { operation: 'get' })).toEqual(
      new ShardlineError('timeout', 'the request deadline passed'),
    );
    const condition = named('ConditionalCheckFailedException');
    const lost = await failing(condition, { operation: 'put', carriesItem: true });
    expect(lost).toMatchObject({ code: 'conflict', cause: condition });
    // The guarded writes read it as the outcome they expect, translated or not.
    expect([isConditionFailed(lost), isConditionFailed(condition), isConditionFailed(full)]).toEqual([
      true,
      true,
      false,
    ]);
    const denied = named('AccessDeniedException');
    const unknown = await failing(denied, { operation: 'get', table: 't' });
    expect(unknown).toMatchObject({ code: 'internal', message: 'AccessDeniedException said no', cause: denied });
    expect(isDynamoError(unknown, 'AccessDeniedException')).toBe(true);
    const bug = new TypeError('x is undefined');
    expect(await failing(bug, { operation: 'get' })).toMatchObject({ code: 'internal', cause: bug });
  });
});

describe("the doors of shardline's own records report their retries", () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  const [collection] = resolveConfig({
    collections: { albums: { field: 'title', strategy: { kind: 'hash', shards: 4 } } },
  });

  /** A document client throttled on its `nth` call, answering `answer` to every other; and who was told of retries. */
  function throttledOnce(answer: object, nth = 1) {
    let calls = 0;
    const doc = {
      send: async () => {
        if (++calls === nth) throw named('ThrottlingException');
        return answer;
      },
    } as unknown as DynamoDBDocumentClient;
    const retried: string[] = [];
    const observer = { retried: (operation: string, reason: string) => void retried.push(`${operation} ${reason}`) };
    return { doc, retried, context: { observer } };
  }

  async function settled<T>(promise: Promise<T>): Promise<T> {
    await vi.runAllTimersAsync();
    return promise;
  }

  it('LoadStore: writes as put, reads as query', async () => {
    const write = throttledOnce({});
    const record = { collection: 'albums', minute: 0, minuteMs: 60_000, router: 'r' } as never;
    await settled(new LoadStore(write.doc, 0).write(collection!, record, write.context));
    expect(write.retried).toEqual(['put throttled']);
    const read = throttledOnce({ Items: [] });
    await settled(new LoadStore(read.doc, 0).read(collection!, [0], read.context));
    expect(read.retried).toEqual(['query throttled']);
  });

  it('DecisionLog: reads as get, writes as put (after its read)', async () => {
    const read = throttledOnce({});
    await settled(new DecisionLog(read.doc).read(collection!, read.context));
    expect(read.retried).toEqual(['get throttled']);
    const append = throttledOnce({}, 2);
    await settled(new DecisionLog(append.doc).append(collection!, { at: 'now' }, append.context));
    expect(append.retried).toEqual(['put throttled']);
  });
});
