import { describe, expect, it } from 'vitest';
import { RouterMetrics } from '../../../src/service/metrics/router-metrics';

function clock(start = 1_000_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number): void => {
      now += ms;
    },
  };
}

describe('RouterMetrics', () => {
  it("starts a collection's figures afresh when its map changes, keeping the old map's totals apart", () => {
    const metrics = new RouterMetrics({ hotKeys: 10 });
    metrics.mapVersion('c', 1);
    for (let shard = 0; shard < 21; shard++) metrics.shardWritten('c', shard, 'a');
    metrics.mapVersion('c', 1); // re-learned on every refresh: no news
    expect(metrics.stats('c', 21).sinceStart.writes).toBe(21);
    metrics.mapVersion('c', 2);
    metrics.shardWritten('c', 2, 'b');
    const { sinceStart } = metrics.stats('c', 5);
    // 5 shards for a 5-shard map, the imbalance over them: none of the 21-shard map's counts.
    expect(sinceStart.shards.map((s) => s.writes)).toEqual([0, 0, 1, 0, 0]);
    expect(sinceStart.writes).toBe(1);
    expect(metrics.totals().map(({ version, counters }) => [version, counters.writes.length])).toEqual([
      [2, 3],
      [1, 21],
    ]);
  });

  it('keeps every shard since start and the last minute in 10-second steps', () => {
    const time = clock();
    const metrics = new RouterMetrics({ now: time.now, hotKeys: 10 });
    metrics.shardWritten('c', 2, 'a');
    metrics.shardQueried('c', 1, 7);
    time.advance(30_000);
    metrics.shardWritten('c', 2, 'a');
    metrics.shardThrottled('c', 0);
    time.advance(35_000); // the first writes are now 65 s old
    metrics.shardWritten('c', 3, 'b');

    const { sinceStart, lastMinute } = metrics.stats('c', 4);
    expect(sinceStart.shards).toEqual([
      { shard: 0, writes: 0, itemsRead: 0, queries: 0, throttles: 1 },
      { shard: 1, writes: 0, itemsRead: 7, queries: 1, throttles: 0 },
      { shard: 2, writes: 2, itemsRead: 0, queries: 0, throttles: 0 },
      { shard: 3, writes: 1, itemsRead: 0, queries: 0, throttles: 0 },
    ]);
    expect(sinceStart.imbalance).toBeCloseTo(2 / (3 / 4), 12);
    expect(sinceStart.seconds).toBe(65);
    expect(lastMinute.shards.map((s) => s.writes)).toEqual([0, 0, 1, 1]);
    expect(lastMinute.shards.map((s) => s.queries)).toEqual([0, 0, 0, 0]);
    expect(lastMinute.hotKeys.map((h) => h.key).sort()).toEqual(['a', 'b']);
    expect(sinceStart.hotKeys[0]).toEqual({ key: 'a', count: 2, error: 0 });

    time.advance(70_000);
    expect(metrics.stats('c', 4).lastMinute.writes).toBe(0);
    expect(metrics.stats('c', 4).lastMinute.imbalance).toBeNull();
  });

  it('keeps at most k hot keys per span however many values are written', () => {
    const time = clock();
    const metrics = new RouterMetrics({ now: time.now, hotKeys: 20 });
    for (let i = 0; i < 20_000; i++) {
      metrics.shardWritten('c', i % 3, i % 4 === 0 ? 'hot' : `v${i}`);
      if (i % 1000 === 0) time.advance(4000);
    }
    const { sinceStart, lastMinute } = metrics.stats('c', 3);
    for (const span of [sinceStart, lastMinute]) {
      expect(span.hotKeys.length).toBeLessThanOrEqual(20);
      expect(span.hotKeys[0]!.key).toBe('hot');
    }
    const hot = sinceStart.hotKeys[0]!;
    expect(hot.count - hot.error).toBeLessThanOrEqual(5000);
    expect(hot.count).toBeGreaterThanOrEqual(5000);
    expect(sinceStart.hotKeyErrorBound).toBeLessThanOrEqual(20_000 / 20);
  });

  it('counts retries by operation and reason and remembers map versions', () => {
    const metrics = new RouterMetrics();
    metrics.retried('query', 'throttled');
    metrics.retried('query', 'throttled');
    metrics.retried('batch_get', 'unprocessed');
    metrics.mapVersion('c', 1);
    metrics.mapVersion('c', 2);
    expect(metrics.retries()).toEqual([
      { operation: 'query', reason: 'throttled', count: 2 },
      { operation: 'batch_get', reason: 'unprocessed', count: 1 },
    ]);
    expect([...metrics.mapVersions()]).toEqual([['c', 2]]);
  });
});
