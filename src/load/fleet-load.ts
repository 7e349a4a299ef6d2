import { type HeavyHitter, type SketchSummary, SpaceSaving } from '../core/space-saving';
import type { RoutedCollection } from '../core/collection';
import { type Figure, GROUP_KEYS, type LoadRecord, PARTITION_RCU, PARTITION_WCU, perFigure } from './load-record';

/** One shard's rates over the window, per second, and the share of a partition's limits it uses. */
export interface ShardLoad {
  readonly shard: number;
  readonly writesPerSecond: number;
  readonly writeUnitsPerSecond: number;
  readonly itemsReadPerSecond: number;
  readonly readUnitsPerSecond: number;
  readonly queriesPerSecond: number;
  readonly throttles: number;
  /** max(WCU ÷ 1,000, RCU ÷ 3,000): 1 is a partition at its limit. */
  readonly partitionShare: number;
}

export interface HotKeys {
  readonly keys: HeavyHitter[];
  /** A key not listed was seen at most this often; every count is high by at most its `error`. */
  readonly errorBound: number;
  readonly total: number;
}

/** The fleet's load on one collection over a window: what every router reported, merged. */
export interface FleetLoad {
  readonly collection: string;
  readonly mapVersion: number;
  readonly windowSeconds: number;
  /** Distinct routers that reported in the window. */
  readonly routers: number;
  /** Records merged (at most one per router per minute). */
  readonly records: number;
  readonly shards: ShardLoad[];
  /** Largest ÷ mean partition share (null when nothing happened). */
  readonly imbalance: number | null;
  readonly hotWrites: HotKeys;
  readonly hotReads: HotKeys;
  /** Per shard, the values sampled, each with the write units it stands for: where in its range writes land. */
  readonly writeSamples: WriteSample[][];
  /** A grouped collection's groups written most, by writes and by write units (absent when no record had any). */
  readonly groups?: { readonly writes: HotKeys; readonly writeUnits: HotKeys };
}

export interface WriteSample {
  readonly value: string;
  readonly units: number;
}

export interface WindowOptions {
  readonly collection: string;
  readonly mapVersion: number;
  readonly shardCount: number;
  /** The end of the window (epoch ms) and its length in minutes of `minuteMs`. */
  readonly now: number;
  readonly minutes: number;
  readonly minuteMs: number;
}

/**
 * Merges routers' minute records into the fleet's view of the window ending at `now`: whole minutes that began
 * inside it, of the map in force (another map's shards mean other ranges). Rates are over the whole window.
 */
export function fleetLoad(records: readonly LoadRecord[], options: WindowOptions): FleetLoad {
  const start = options.now - options.minutes * options.minuteMs;
  const windowSeconds = (options.minutes * options.minuteMs) / 1000;
  const kept = records.filter(
    (record) =>
      record.collection === options.collection &&
      record.mapVersion === options.mapVersion &&
      record.minute >= start &&
      record.minute < options.now,
  );
  const sums = perFigure((figure) =>
    Array.from({ length: options.shardCount }, (_, shard) =>
      kept.reduce((sum, record) => sum + (record.figures[figure][shard] ?? 0), 0),
    ),
  );
  const writeSamples = Array.from({ length: options.shardCount }, (): WriteSample[] => []);
  for (const record of kept) {
    record.writeSamples?.forEach((values, shard) => {
      const units = (record.figures.writeUnits[shard] ?? 0) / Math.max(1, values.length);
      for (const value of values) writeSamples[shard]?.push({ value, units });
    });
  }
  const rate = (figure: Figure, shard: number) => sums[figure][shard]! / windowSeconds;
  const shards = Array.from({ length: options.shardCount }, (_, shard): ShardLoad => {
    const writeUnitsPerSecond = rate('writeUnits', shard);
    const readUnitsPerSecond = rate('readUnits', shard);
    return {
      shard,
      writesPerSecond: rate('writes', shard),
      writeUnitsPerSecond,
      itemsReadPerSecond: rate('itemsRead', shard),
      readUnitsPerSecond,
      queriesPerSecond: rate('queries', shard),
      throttles: sums.throttles[shard]!,
      partitionShare: Math.max(writeUnitsPerSecond / PARTITION_WCU, readUnitsPerSecond / PARTITION_RCU),
    };
  });
  const groupWrites = kept.flatMap((record) => record.groups?.writes ?? []);
  const groupUnits = kept.flatMap((record) => record.groups?.writeUnits ?? []);
  return {
    collection: options.collection,
    mapVersion: options.mapVersion,
    windowSeconds,
    routers: new Set(kept.map((record) => record.router)).size,
    records: kept.length,
    shards,
    imbalance: imbalanceOf(shards.map((s) => s.partitionShare)),
    hotWrites: hotKeysOf(kept.map((record) => record.written)),
    hotReads: hotKeysOf(kept.map((record) => record.read)),
    writeSamples,
    ...(groupWrites.length > 0 && {
      groups: { writes: hotKeysOf(groupWrites, GROUP_KEYS), writeUnits: hotKeysOf(groupUnits, GROUP_KEYS) },
    }),
  };
}

/** Shards the load figures are kept for: a grouped collection's in one, as shard `i` of each group differs. */
export function loadShardCount(collection: RoutedCollection): number {
  return collection.group ? 1 : collection.map.strategy.shardCount;
}

function imbalanceOf(shares: readonly number[]): number | null {
  const total = shares.reduce((a, b) => a + b, 0);
  return total > 0 ? Math.max(...shares) / (total / shares.length) : null;
}

/** Merged at the parts' smallest capacity: only there does each side's smallest counter bound its absent keys. */
function hotKeysOf(parts: readonly SketchSummary[], most = 100): HotKeys {
  const capacity = Math.min(most, ...parts.map((part) => part.capacity));
  const merged = new SpaceSaving(capacity);
  for (const part of parts) merged.merge(SpaceSaving.fromSummary({ ...part, capacity }));
  return { keys: merged.top(), errorBound: merged.errorBound, total: merged.total };
}
