import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../../src/core/item';
import { FOLLOW_RETRY, Follower, type FollowerDeps } from '../../../src/follow/follower';
import type { BatchResult } from '../../../src/service/change-indexer';
import type { ShardCheckpoint } from '../../../src/store/checkpoints';
import type { StreamShard } from '../../../src/store/stream-reader';
import type { StreamRecordLike } from '../../../src/store/stream-records';

/** A record of item `pk` in the SDK's shape; `checkpoint` ones are a follower's own checkpoint items. */
function record(sequence: number, pk: string): StreamRecordLike {
  return {
    eventName: 'MODIFY',
    dynamodb: {
      Keys: { pk: { S: pk } },
      NewImage: { pk: { S: pk } },
      SequenceNumber: String(sequence).padStart(21, '0'),
    },
  };
}

/** A stream in memory: shards with their records; iterators are "shard:position". */
class FakeStream {
  constructor(
    readonly shardList: StreamShard[],
    readonly records: Map<string, StreamRecordLike[]>,
  ) {}
  async shards() {
    return this.shardList;
  }
  async iterator(shard: string, after: string | undefined) {
    const list = this.records.get(shard)!;
    const position = after === undefined ? 0 : list.findIndex((r) => r.dynamodb!.SequenceNumber === after) + 1;
    return `${shard}:${position}`;
  }
  async read(iterator: string, limit: number) {
    const [shard, at] = iterator.split(':') as [string, string];
    const list = this.records.get(shard)!;
    const records = list.slice(Number(at), Number(at) + limit);
    const end = Number(at) + records.length;
    const closed = this.shardList.find((s) => s.id === shard)!.closed;
    return { records, ...(!(closed && end >= list.length) && { next: `${shard}:${end}` }) };
  }
}

function follower(
  stream: FakeStream,
  checkpoints: Map<string, ShardCheckpoint>,
  applied: string[][],
  overrides: Partial<FollowerDeps> = {},
) {
  const deps: FollowerDeps = {
    table: 't',
    reader: stream,
    checkpoints: {
      read: async (shards) => new Map([...checkpoints].filter(([id]) => shards.includes(id))),
      write: async (shard, checkpoint) => void checkpoints.set(shard, checkpoint),
    },
    indexer: {
      applyBatch: async (changes): Promise<BatchResult> => {
        applied.push(changes.map((c) => String(c.key.pk)));
        return { counts: { indexed: changes.length, current: 0, skipped: 0, poison: 0 }, failed: [] };
      },
    },
    isCheckpoint: (key: JsonObject) => String(key.pk).startsWith('__shardline#follow#'),
    batchSize: 2,
    untilIdle: true,
    pollMs: 0,
    signal: new AbortController().signal,
    onProgress: () => {},
    log: () => {},
    ...overrides,
  };
  return new Follower(deps);
}

describe('Follower', () => {
  const shards: StreamShard[] = [
    { id: 'child', parent: 'parent', closed: false },
    { id: 'parent', closed: true },
  ];
  const records = () =>
    new Map([
      ['parent', [record(1, 'a'), record(2, 'b'), record(3, 'a')]],
      ['child', [record(4, 'a'), record(5, '__shardline#follow#x'), record(6, 'c')]],
    ]);

  it('reads a parent to its end before its child, batch by batch, and checkpoints both', async () => {
    const applied: string[][] = [];
    const checkpoints = new Map<string, ShardCheckpoint>();
    const run = follower(new FakeStream(shards, records()), checkpoints, applied);
    await run.run();
    expect(applied).toEqual([['a', 'b'], ['a'], ['a'], ['c']]);
    expect(checkpoints.get('parent')).toEqual({ done: true, sequence: '000000000000000000003' });
    expect(checkpoints.get('child')).toEqual({ done: false, sequence: '000000000000000000006' });
    expect(run.stats.seen).toBe(5); // its own checkpoint's change is not counted
  });

  it('restarted, resumes after its checkpoints and skips shards it finished', async () => {
    const checkpoints = new Map<string, ShardCheckpoint>([
      ['parent', { done: true, sequence: '000000000000000000003' }],
      ['child', { done: false, sequence: '000000000000000000004' }],
    ]);
    const applied: string[][] = [];
    await follower(new FakeStream(shards, records()), checkpoints, applied).run();
    expect(applied).toEqual([['c']]);
  });

  it('writes no checkpoint for a batch of nothing but checkpoint changes (else it would never be idle)', async () => {
    const own = new Map([['parent', [record(1, '__shardline#follow#x')]]]);
    const checkpoints = new Map<string, ShardCheckpoint>();
    const applied: string[][] = [];
    await follower(new FakeStream([{ id: 'parent', closed: false }], own), checkpoints, applied).run();
    expect(applied).toEqual([]);
    expect(checkpoints.size).toBe(0);
  });
});

/** An indexer that fails every batch its first `failures` calls (DynamoDB unreachable), noting when each came. */
function failingIndexer(failures: number) {
  const calls: number[] = [];
  const indexer: FollowerDeps['indexer'] = {
    applyBatch: async (changes): Promise<BatchResult> => {
      calls.push(Date.now());
      if (calls.length <= failures) {
        const failed = changes.map((change) => change.sequence);
        return { counts: { indexed: 0, current: 0, skipped: 0, poison: 0 }, failed, error: new Error('unreachable') };
      }
      return { counts: { indexed: changes.length, current: 0, skipped: 0, poison: 0 }, failed: [] };
    },
  };
  return { indexer, calls };
}

/** What `running` came to within `ms` (real time): 'returned', or 'still running'. */
function within(running: Promise<void>, ms: number): Promise<'returned' | 'still running'> {
  let guard: NodeJS.Timeout | undefined;
  const late = new Promise<'still running'>((resolve) => (guard = setTimeout(() => resolve('still running'), ms)));
  return Promise.race([running.then(() => 'returned' as const), late]).finally(() => clearTimeout(guard));
}

describe('Follower retries', () => {
  const one = () => new Map([['s', [record(1, 'a')]]]);
  const open: StreamShard[] = [{ id: 's', closed: false }];
  afterEach(() => vi.useRealTimers());

  it('waits between attempts of a failed batch as the shared backoff says: doubling, capped, jittered', async () => {
    vi.useFakeTimers({ now: 0 });
    for (const [random, expected] of [
      [1, [500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]],
      [0.5, [250, 500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000]],
    ] as const) {
      const { indexer, calls } = failingIndexer(9);
      const checkpoints = new Map<string, ShardCheckpoint>();
      const retry = { ...FOLLOW_RETRY, random: () => random };
      const running = follower(new FakeStream(open, one()), checkpoints, [], { indexer, retry }).run();
      await vi.runAllTimersAsync();
      await running;
      expect(calls.slice(1).map((at, i) => at - calls[i]!)).toEqual(expected);
      // It landed on the tenth attempt, and only then was checkpointed.
      expect(checkpoints.get('s')).toEqual({ done: false, sequence: '000000000000000000001' });
    }
  });

  it('stops waiting for the next attempt at once when aborted, and leaves the batch without a checkpoint', async () => {
    const { indexer, calls } = failingIndexer(Number.POSITIVE_INFINITY);
    const stop = new AbortController();
    const checkpoints = new Map<string, ShardCheckpoint>();
    const run = follower(new FakeStream(open, one()), checkpoints, [], {
      indexer,
      signal: stop.signal,
      // A minute's wait after the first failure, aborted once the wait has begun.
      retry: { ...FOLLOW_RETRY, baseDelayMs: 60_000, maxDelayMs: 60_000, random: () => 1 },
      log: () => void setTimeout(() => stop.abort(), 20),
    });
    expect(await within(run.run(), 5000)).toBe('returned');
    expect(calls).toHaveLength(1);
    expect(checkpoints.size).toBe(0);
    expect(run.stats.seen).toBe(0);
  });

  it('stops waiting to read again at once when aborted', async () => {
    const stop = new AbortController();
    const run = follower(new FakeStream(open, one()), new Map(), [], {
      untilIdle: false,
      pollMs: 60_000,
      signal: stop.signal,
      onProgress: () => void setTimeout(() => stop.abort(), 20),
    });
    expect(await within(run.run(), 5000)).toBe('returned');
    expect(run.stats.seen).toBe(1);
  });
});
