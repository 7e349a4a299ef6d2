import { CallCounts, type HedgeCount, type MetricsRecorder, type RequestRecord, type RetryCount } from './recorder';

/** One collection and shard's counts since the last flush. */
export interface ShardDelta {
  readonly collection: string;
  readonly shard: number;
  writes: number;
  queries: number;
  itemsRead: number;
  throttles: number;
}

/** What happened since the last flush: per shard, retries, new map versions, and the request that ended. */
export interface Deltas {
  readonly shards: readonly ShardDelta[];
  readonly retries: readonly RetryCount[];
  readonly hedges: readonly HedgeCount[];
  readonly mapVersions: readonly { collection: string; version: number }[];
  readonly request: RequestRecord;
}

/**
 * A recorder for push-style sinks (CloudWatch EMF on Lambda, Workers Analytics Engine): sums
 * handed to `flush` when a request ends, one flush however many shards it touched. With requests
 * side by side (a Worker isolate) one flush may carry another's counts: the sums stay right.
 */
export class DeltaRecorder extends CallCounts implements MetricsRecorder {
  readonly enabled = true;
  private shards = new Map<string, ShardDelta>();
  private versions = new Map<string, number>();
  private readonly flushed = new Map<string, number>();

  constructor(private readonly flush: (deltas: Deltas) => void) {
    super();
  }

  shardQueried(collection: string, shard: number, itemsRead: number): void {
    const delta = this.of(collection, shard);
    delta.queries++;
    delta.itemsRead += itemsRead;
  }

  shardWritten(collection: string, shard: number): void {
    this.of(collection, shard).writes++;
  }

  shardThrottled(collection: string, shard: number): void {
    this.of(collection, shard).throttles++;
  }

  mapVersion(collection: string, version: number): void {
    // Only a change is news: the version is re-learned on every map refresh.
    if (this.flushed.get(collection) !== version) this.versions.set(collection, version);
  }

  requestDone(request: RequestRecord): void {
    const deltas: Deltas = {
      shards: [...this.shards.values()],
      retries: this.retries(),
      hedges: this.hedges(),
      mapVersions: [...this.versions].map(([collection, version]) => ({ collection, version })),
      request,
    };
    for (const { collection, version } of deltas.mapVersions) this.flushed.set(collection, version);
    this.shards = new Map();
    this.clear();
    this.versions = new Map();
    try {
      this.flush(deltas);
    } catch {
      // A sink that fails must not fail the request it reports on.
    }
  }

  private of(collection: string, shard: number): ShardDelta {
    const key = `${shard} ${collection}`;
    const delta = this.shards.get(key) ?? { collection, shard, writes: 0, queries: 0, itemsRead: 0, throttles: 0 };
    this.shards.set(key, delta);
    return delta;
  }
}
