import type { RetryOperation, RetryReason } from '../../store/retry';

/** One answered HTTP request, as the latency histogram and the request log see it. */
export interface RequestRecord {
  /** The matched route pattern (`/collections/:collection/items`), never the raw path. */
  readonly route: string;
  readonly method: string;
  readonly status: number;
  readonly seconds: number;
}

/**
 * Where the serving path reports what it did, per collection and shard. The listing
 * executor, the write path and the retry layer call it; each runtime decides who listens
 * (the in-memory statistics behind /stats and /metrics, CloudWatch EMF lines, Workers
 * Analytics Engine). Calls must be cheap and must never throw: they sit on hot paths.
 * `enabled` is false for NO_METRICS, so callers can skip building arguments.
 */
export interface MetricsRecorder {
  readonly enabled: boolean;
  /**
   * One shard query answered, having read `itemsRead` items, the first of them at index
   * sort key `firstKey` (where the read landed: the fleet's hot reads count it).
   */
  shardQueried(collection: string, shard: number, itemsRead: number, firstKey?: string): void;
  /** One item written to `shard`; `value` is its normalized ordered value (for hot keys). */
  shardWritten(collection: string, shard: number, value: string): void;
  /** DynamoDB throttled a call against `shard` (each retry of it counts once). */
  shardThrottled(collection: string, shard: number): void;
  retried(operation: RetryOperation, reason: RetryReason): void;
  /** A slow shard query of `collection` was sent again (hedged); `won` when the second answered first. */
  hedged(collection: string, won: boolean): void;
  /** The shard map version the router reads `collection` by now. */
  mapVersion(collection: string, version: number): void;
  requestDone(request: RequestRecord): void;
}

const nothing = (): void => undefined;

/** Nobody listens: every call returns at once. */
export const NO_METRICS: MetricsRecorder = {
  enabled: false,
  shardQueried: nothing,
  shardWritten: nothing,
  shardThrottled: nothing,
  retried: nothing,
  hedged: nothing,
  mapVersion: nothing,
  requestDone: nothing,
};

/** One recorder that tells each of `recorders` (the enabled ones) everything. */
export function fanOut(recorders: readonly MetricsRecorder[]): MetricsRecorder {
  const live = recorders.filter((recorder) => recorder.enabled);
  if (live.length === 0) return NO_METRICS;
  if (live.length === 1) return live[0]!;
  return {
    enabled: true,
    shardQueried: (c, s, n, k) => {
      for (const r of live) r.shardQueried(c, s, n, k);
    },
    shardWritten: (c, s, v) => {
      for (const r of live) r.shardWritten(c, s, v);
    },
    shardThrottled: (c, s) => {
      for (const r of live) r.shardThrottled(c, s);
    },
    retried: (o, why) => {
      for (const r of live) r.retried(o, why);
    },
    hedged: (c, won) => {
      for (const r of live) r.hedged(c, won);
    },
    mapVersion: (c, v) => {
      for (const r of live) r.mapVersion(c, v);
    },
    requestDone: (request) => {
      for (const r of live) r.requestDone(request);
    },
  };
}

/** Hedged shard queries of one collection: how many the hedge won, how many the first query still won. */
export interface HedgeCount {
  readonly collection: string;
  won: number;
  lost: number;
}

/** Hedge counts per collection. */
export class HedgeCounts {
  private readonly counts = new Map<string, HedgeCount>();

  add(collection: string, won: boolean): void {
    let known = this.counts.get(collection);
    if (!known) {
      known = { collection, won: 0, lost: 0 };
      this.counts.set(collection, known);
    }
    if (won) known.won++;
    else known.lost++;
  }

  list(): HedgeCount[] {
    return [...this.counts.values()];
  }
}

/** How many retries one operation took for one reason. */
export interface RetryCount {
  readonly operation: RetryOperation;
  readonly reason: RetryReason;
  count: number;
}

/** Retries counted by operation and reason (a handful of pairs, whatever the traffic). */
export class RetryCounts {
  private readonly counts = new Map<string, RetryCount>();

  add(operation: RetryOperation, reason: RetryReason): void {
    const key = `${operation} ${reason}`;
    const known = this.counts.get(key);
    if (known) known.count++;
    else this.counts.set(key, { operation, reason, count: 1 });
  }

  list(): RetryCount[] {
    return [...this.counts.values()];
  }
}
