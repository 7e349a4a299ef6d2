import type { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { ShardlineError } from '../../../src/core/errors';
import { batchGetAll } from '../../../src/store/batch-get';
import { CheckpointStore } from '../../../src/store/checkpoints';
import type { RetryPolicy } from '../../../src/store/retry';

type Key = Record<string, unknown>;
type Answer = { Responses?: Record<string, Key[]>; UnprocessedKeys?: Record<string, { Keys: Key[] }> };

/** A client that answers each BatchGetItem from `answer`, noting when each came and what it asked for. */
function fakeDoc(answer: (keys: Key[], call: number, table: string) => Answer) {
  const calls: { at: number; keys: Key[]; consistent: boolean | undefined }[] = [];
  const doc = {
    send: async (command: BatchGetCommand) => {
      const [table, request] = Object.entries(command.input.RequestItems ?? {})[0]!;
      const keys = request.Keys ?? [];
      calls.push({ at: Date.now(), keys, consistent: request.ConsistentRead });
      return answer(keys, calls.length, table);
    },
  } as unknown as DynamoDBDocumentClient;
  return { doc, calls };
}

/** Items for `keys`, all but the last `left`, which come back unprocessed. */
function partly(keys: Key[], left: number): Answer {
  const answered = keys.slice(0, keys.length - left).map((key) => ({ ...key, found: true }));
  return { Responses: { t: answered }, UnprocessedKeys: left > 0 ? { t: { Keys: keys.slice(-left) } } : {} };
}

// random() = 1: every wait is its ceiling, base * 2^n capped, so the test knows when each resend is due.
const POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000, random: () => 1 };

describe('batchGetAll', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('resends unprocessed keys only after a jittered backoff, and returns every key', async () => {
    const keys = [{ pk: 'a' }, { pk: 'b' }, { pk: 'c' }];
    // The first answer returns one item, the second none (a throttled partition), the third the rest.
    const { doc, calls } = fakeDoc((sent, call) => partly(sent, call < 3 ? 2 : 0));
    const waits: number[] = [];
    const random = () => {
      waits.push(waits.length);
      return 0.5;
    };
    const read = batchGetAll(
      doc,
      { t: { Keys: keys, ConsistentRead: true } },
      {
        what: 'a test read',
        context: {},
        policy: { ...POLICY, random },
      },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    // An answer that returned an item resets the backoff: the wait is random * base = 50 ms.
    await vi.advanceTimersByTimeAsync(49);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    // Nothing processed the second time: the next wait doubles (0.5 * 200 ms).
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    const items = await read;
    expect(items.map((item) => item.pk).sort()).toEqual(['a', 'b', 'c']);
    expect(calls.map((call) => call.keys)).toEqual([keys, [{ pk: 'b' }, { pk: 'c' }], [{ pk: 'b' }, { pk: 'c' }]]);
    // The resends are the same read: consistent, like the first.
    expect(calls.every((call) => call.consistent === true)).toBe(true);
    expect(waits).toHaveLength(2);
  });

  it('gives up like a call out of retries when answers keep processing nothing', async () => {
    const { doc, calls } = fakeDoc((sent) => partly(sent, sent.length));
    const retried: string[] = [];
    const observer = { retried: (operation: string, reason: string) => void retried.push(`${operation} ${reason}`) };
    const read = batchGetAll(
      doc,
      { t: { Keys: [{ pk: 'a' }] } },
      {
        what: 'a test read',
        context: { observer },
        policy: POLICY,
      },
    );
    const failure = read.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await failure;
    expect(error).toBeInstanceOf(ShardlineError);
    expect(error).toMatchObject({ code: 'unavailable', details: { reason: 'throttled' } });
    expect(calls).toHaveLength(POLICY.maxAttempts);
    // Waits of 200 and 400 ms (random() = 1) between the three answers that processed nothing.
    expect(calls.map((call) => call.at)).toEqual([0, 200, 600]);
    expect(retried).toEqual(['batch_get unprocessed', 'batch_get unprocessed']);
  });

  it('gives up at once when the backoff would pass the deadline', async () => {
    const { doc, calls } = fakeDoc((sent) => partly(sent, sent.length));
    const read = batchGetAll(
      doc,
      { t: { Keys: [{ pk: 'a' }] } },
      {
        what: 'a test read',
        context: { deadline: 150 },
        policy: POLICY,
      },
    );
    await expect(read).rejects.toMatchObject({ code: 'timeout' });
    expect(calls).toHaveLength(1);
  });
  it('resends only the tables with keys left, each as it was read, the keys as DynamoDB returned them', async () => {
    const sent: Record<string, unknown>[] = [];
    const unprocessed = { id: 2, sk: 'returned' };
    const doc = {
      send: async (command: BatchGetCommand) => {
        const requests = command.input.RequestItems ?? {};
        sent.push(requests);
        if (sent.length > 1) return { Responses: { u: [{ id: 2 }] } };
        return { Responses: { t: [{ id: 1 }] }, UnprocessedKeys: { u: { Keys: [unprocessed] } } };
      },
    } as unknown as DynamoDBDocumentClient;
    const read = batchGetAll(
      doc,
      { t: { Keys: [{ id: 1 }], ConsistentRead: true }, u: { Keys: [{ id: 2 }], ProjectionExpression: 'id' } },
      { what: 'a test read', context: {}, policy: POLICY },
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(await read).toEqual([{ id: 1 }, { id: 2 }]);
    expect(sent[1]).toEqual({ u: { Keys: [unprocessed], ProjectionExpression: 'id' } });
  });
});

describe('CheckpointStore.read', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('backs off before it asks again for checkpoints left unprocessed', async () => {
    const [collection] = resolveConfig({
      collections: { albums: { field: 'title', strategy: { kind: 'hash', shards: 4 } } },
    });
    // Nothing processed the first time; every key the second.
    const { doc, calls } = fakeDoc((sent, call, table) => ({
      Responses: { [table]: call === 1 ? [] : sent.map((key, i) => ({ ...key, shard: `s${i}`, done: true })) },
      UnprocessedKeys: call === 1 ? { [table]: { Keys: sent } } : {},
    }));
    const store = new CheckpointStore(doc, collection!, 'f', 'stream', POLICY);
    const read = store.read(['s0', 's1']);
    await vi.advanceTimersByTimeAsync(199);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const found = await read;
    expect(calls.map((call) => call.at)).toEqual([0, 200]);
    expect([...found.keys()]).toEqual(['s0', 's1']);
  });
});
