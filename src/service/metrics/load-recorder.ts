import { randomUUID } from 'node:crypto';
import type { CollectionSpec } from '../../core/collection';
import { valueOfIndexKey } from '../../core/index-key';
import { LoadMeter } from '../../load/load-meter';
import type { LoadStore } from '../../store/load-store';
import type { RetryObserver } from '../../store/retry';
import { NO_METRICS, type MetricsRecorder } from './recorder';

/**
 * A read of up to 4 KB costs half a unit (eventually consistent): a query's units are estimated
 * from its small index entries at ~400 bytes each, never below the half unit any query costs.
 */
const ITEMS_PER_READ_UNIT = 20;
/** A write of up to 1 KB costs one unit, and the index entry it makes another. */
const UNITS_PER_WRITE = 2;

/**
 * What a router contributes to the fleet's load (docs/autopilot.md): counts per collection per minute,
 * which `flush` writes, one item per collection and ended minute, to the collection's table.
 * Runtimes call `flush` (Node: on a timer; Lambda: after an invocation; Worker: waitUntil).
 */
export class LoadRecorder {
  readonly router = randomUUID();
  private readonly meter: LoadMeter;
  private readonly versions = new Map<string, number>();
  /** Grouped collections: their figures are kept in shard 0 (fleet-load.ts loadShardCount). */
  private readonly grouped: ReadonlySet<string>;
  private lastFlush: number;

  constructor(
    readonly store: LoadStore,
    private readonly collections: readonly CollectionSpec[],
    readonly minuteMs: number,
    /** The time minutes are counted by: tests move a clock of their own rather than wait minutes out. */
    private readonly now: () => number = Date.now,
    /** Told of the record writes' retries (the process's metrics); unset where nothing listens. */
    private readonly retries?: RetryObserver,
  ) {
    this.meter = new LoadMeter(this.router, minuteMs);
    this.grouped = new Set(collections.filter((collection) => collection.group).map((collection) => collection.name));
    this.lastFlush = this.now();
  }

  readonly recorder: MetricsRecorder = {
    ...NO_METRICS,
    enabled: true,
    shardQueried: (collection, shard, itemsRead, firstKey) =>
      this.meter.queried(
        ...this.where(collection, shard),
        itemsRead,
        Math.max(0.5, itemsRead / ITEMS_PER_READ_UNIT),
        // A query counts once, at the value where it began reading: a key listed again and again is hot.
        firstKey === undefined ? [] : [valueOfIndexKey(firstKey)],
        this.now(),
      ),
    shardWritten: (collection, shard, value, group) =>
      this.meter.wrote(...this.where(collection, shard), value, UNITS_PER_WRITE, this.now(), group),
    shardThrottled: (collection, shard) => this.meter.throttled(...this.where(collection, shard), this.now()),
    mapVersion: (collection, version) => void this.versions.set(collection, version),
  };

  /** Whether a minute has ended since the last flush (Lambda flushes only then). */
  due(): boolean {
    return Math.floor(this.now() / this.minuteMs) > Math.floor(this.lastFlush / this.minuteMs);
  }

  /** Writes every ended minute's records; a failed write is logged, not retried later (the next minute goes on). */
  async flush(): Promise<number> {
    this.lastFlush = this.now();
    const records = this.meter.take(this.lastFlush);
    const byName = new Map(this.collections.map((collection) => [collection.name, collection]));
    const writes = records.map(async (record) => {
      const collection = byName.get(record.collection);
      if (!collection) return;
      try {
        await this.store.write(collection, record, this.retries ? { observer: this.retries } : {});
      } catch (error) {
        console.warn(`shardline: load record of ${record.collection} not written (${(error as Error).message})`);
      }
    });
    await Promise.all(writes);
    return records.length;
  }

  /**
   * The collection, map version and shard a count goes to. A grouped collection's shard numbers are within
   * a group (shard 1 of two groups is two partitions), so its figures are the whole collection's, in shard 0.
   */
  private where(collection: string, shard: number): [string, number, number] {
    return [collection, this.versions.get(collection) ?? 1, this.grouped.has(collection) ? 0 : shard];
  }
}
