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
 * Where the serving path reports what it did, per collection and shard; each runtime decides
 * who listens (the statistics behind /stats and /metrics, CloudWatch EMF, Workers Analytics
 * Engine). Calls must be cheap and never throw: they sit on hot paths. `enabled` is false for
 * NO_METRICS, so callers can skip building arguments.
 */
export interface MetricsRecorder {
  readonly enabled: boolean;
  /** One shard query answered; `firstKey`: the index key where it landed (the fleet's hot reads count it). */
  shardQueried(collection: string, shard: number, itemsRead: number, firstKey?: string): void;
  /**
   * One item written to `shard`; `value` is its normalized ordered value (for hot keys); `group` a
   * grouped collection's item's group (the fleet's load counts writes per group), `shard` then its group's.
   */
  shardWritten(collection: string, shard: number, value: string, group?: string): void;
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
  const each =
    <M extends Exclude<keyof MetricsRecorder, 'enabled'>>(method: M) =>
    (...args: Parameters<MetricsRecorder[M]>): void => {
      for (const recorder of live) (recorder[method] as (...args: Parameters<MetricsRecorder[M]>) => void)(...args);
    };
  return {
    enabled: true,
    shardQueried: each('shardQueried'),
    shardWritten: each('shardWritten'),
    shardThrottled: each('shardThrottled'),
    retried: each('retried'),
    hedged: each('hedged'),
    mapVersion: each('mapVersion'),
    requestDone: each('requestDone'),
  };
}

/** Hedged shard queries of one collection: how many the hedge won, how many the first query still won. */
export interface HedgeCount {
  readonly collection: string;
  won: number;
  lost: number;
}

/** How many retries one operation took for one reason. */
export interface RetryCount {
  readonly operation: RetryOperation;
  readonly reason: RetryReason;
  count: number;
}

/** Retries by operation and reason, hedges by collection: a handful of entries, whatever the traffic. */
export class CallCounts {
  private readonly retryCounts = new Map<string, RetryCount>();
  private readonly hedgeCounts = new Map<string, HedgeCount>();

  retried(operation: RetryOperation, reason: RetryReason): void {
    const key = `${operation} ${reason}`;
    const known = this.retryCounts.get(key);
    if (known) known.count++;
    else this.retryCounts.set(key, { operation, reason, count: 1 });
  }

  hedged(collection: string, won: boolean): void {
    const known = this.hedgeCounts.get(collection) ?? { collection, won: 0, lost: 0 };
    this.hedgeCounts.set(collection, known);
    if (won) known.won++;
    else known.lost++;
  }

  retries(): RetryCount[] {
    return [...this.retryCounts.values()];
  }

  hedges(): HedgeCount[] {
    return [...this.hedgeCounts.values()];
  }

  protected clear(): void {
    this.retryCounts.clear();
    this.hedgeCounts.clear();
  }
}
