import type { HeavyHitter } from '../../core/space-saving';
import { CallCounts, type MetricsRecorder } from './recorder';
import { ShardCounters, type ShardFigures } from './shard-counters';

export interface RouterMetricsOptions {
  /** Counters of the hot-key sketch (k): memory per collection and window is bounded by it. */
  readonly hotKeys?: number;
  readonly now?: () => number;
}

/** A span of time's figures for one collection (since start, or the last minute). */
export interface SpanStats {
  readonly seconds: number;
  readonly writes: number;
  readonly shards: ShardFigures[];
  /** Largest ÷ mean writes per shard; null before any write. */
  readonly imbalance: number | null;
  /** The most written normalized values, largest first: true count ≥ count − error. */
  readonly hotKeys: HeavyHitter[];
  /** The most any value missing from hotKeys can have been written in the span. */
  readonly hotKeyErrorBound: number;
}

export const DEFAULT_HOT_KEYS = 100;
/** The last minute is six 10-second buckets: bounded memory, a window that moves every 10 s. */
const BUCKET_MS = 10_000;
const BUCKETS = 6;

interface Bucket {
  /** Which 10-second step of the clock the bucket holds; −1 when empty. */
  step: number;
  readonly counters: ShardCounters;
}

interface CollectionCounters {
  /** The read map these count under: its shard numbers are the ones they mean (undefined until known). */
  version: number | undefined;
  readonly total: ShardCounters;
  readonly recent: Bucket[];
}

/** One collection's totals under one map version, for an exporter. */
export interface VersionTotals {
  readonly collection: string;
  readonly version: number | undefined;
  readonly counters: ShardCounters;
}

/**
 * What this router saw since it started, in memory, for /stats, /heat and /metrics. Memory is
 * bounded: per collection one set of shard counters and k sketch counters, times seven.
 */
export class RouterMetrics extends CallCounts implements MetricsRecorder {
  readonly enabled = true;
  readonly startedAt: number;
  readonly hotKeyCapacity: number;
  private readonly now: () => number;
  private readonly collections = new Map<string, CollectionCounters>();
  private readonly versions = new Map<string, number>();
  /** The totals under each collection's previous map, kept for exporters after a map change. */
  private readonly earlier = new Map<string, VersionTotals>();

  constructor(options: RouterMetricsOptions = {}) {
    super();
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.hotKeyCapacity = options.hotKeys ?? DEFAULT_HOT_KEYS;
  }

  shardQueried(collection: string, shard: number, itemsRead: number): void {
    this.count(collection, (counters) => counters.queried(shard, itemsRead));
  }

  shardWritten(collection: string, shard: number, value: string): void {
    this.count(collection, (counters) => counters.written(shard, value));
  }

  shardThrottled(collection: string, shard: number): void {
    this.count(collection, (counters) => counters.throttled(shard));
  }

  /** A map change starts the figures afresh: shard 3 of the new map is not shard 3 of the old one. */
  mapVersion(collection: string, version: number): void {
    this.versions.set(collection, version);
    const counters = this.of(collection);
    if (counters.version === version) return;
    if (counters.version !== undefined) {
      this.earlier.set(collection, { collection, version: counters.version, counters: counters.total });
      this.collections.set(collection, this.fresh(version));
    } else counters.version = version;
  }

  requestDone(): void {}

  /** Since start and over the last minute, with every shard of `shardCount` listed (zeros too). */
  stats(collection: string, shardCount: number): { sinceStart: SpanStats; lastMinute: SpanStats } {
    const counters = this.of(collection);
    const recent = new ShardCounters(this.hotKeyCapacity);
    const step = this.step();
    for (const bucket of counters.recent) if (bucket.step > step - BUCKETS) recent.add(bucket.counters);
    const since = (this.now() - this.startedAt) / 1000;
    return {
      sinceStart: span(counters.total, shardCount, since),
      lastMinute: span(recent, shardCount, Math.min(since, (BUCKET_MS * BUCKETS) / 1000)),
    };
  }

  /** Every collection's counters under its current map and its previous one, for an exporter to read. */
  totals(): VersionTotals[] {
    const current = [...this.collections].map(([collection, { version, total }]) => ({
      collection,
      version,
      counters: total,
    }));
    return [...current, ...this.earlier.values()];
  }

  mapVersions(): ReadonlyMap<string, number> {
    return this.versions;
  }

  /** Counts into the collection's totals and the current 10 seconds' bucket. */
  private count(collection: string, add: (counters: ShardCounters) => void): void {
    const counters = this.of(collection);
    add(counters.total);
    add(this.bucket(counters));
  }

  private of(collection: string): CollectionCounters {
    const counters = this.collections.get(collection) ?? this.fresh(this.versions.get(collection));
    this.collections.set(collection, counters);
    return counters;
  }

  private fresh(version: number | undefined): CollectionCounters {
    return {
      version,
      total: new ShardCounters(this.hotKeyCapacity),
      recent: Array.from({ length: BUCKETS }, () => ({ step: -1, counters: new ShardCounters(this.hotKeyCapacity) })),
    };
  }

  /** The bucket of the current 10 seconds, emptied first when it last held an older step. */
  private bucket(counters: CollectionCounters): ShardCounters {
    const step = this.step();
    const bucket = counters.recent[step % BUCKETS]!;
    if (bucket.step !== step) {
      bucket.step = step;
      bucket.counters.clear();
    }
    return bucket.counters;
  }

  private step(): number {
    return Math.floor(this.now() / BUCKET_MS);
  }
}

function span(counters: ShardCounters, shardCount: number, seconds: number): SpanStats {
  const shards = counters.figures(shardCount);
  const writes = shards.reduce((sum, shard) => sum + shard.writes, 0);
  const largest = shards.reduce((most, shard) => Math.max(most, shard.writes), 0);
  const mean = shards.length === 0 ? 0 : writes / shards.length;
  return {
    seconds: Math.round(seconds * 10) / 10,
    writes,
    shards,
    imbalance: mean === 0 ? null : largest / mean,
    hotKeys: counters.hot.top(),
    hotKeyErrorBound: counters.hot.errorBound,
  };
}
