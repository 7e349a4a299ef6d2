import type { SketchSummary } from '../core/space-saving';

export const FIGURES = ['writes', 'writeUnits', 'itemsRead', 'readUnits', 'queries', 'throttles'] as const;
export type Figure = (typeof FIGURES)[number];

/** One `make(figure)` per figure. */
export function perFigure<T>(make: (figure: Figure) => T): Record<Figure, T> {
  return Object.fromEntries(FIGURES.map((figure) => [figure, make(figure)])) as Record<Figure, T>;
}

/** One router's load on one collection during one minute (docs/autopilot.md), as it writes it to the table. */
export interface LoadRecord {
  readonly collection: string;
  /** The writing process's id, random per start: how many routers reported. */
  readonly router: string;
  /** When the minute began (epoch ms, a multiple of `minuteMs`). */
  readonly minute: number;
  /** The minute's length: 60,000, or shorter where tests and benches set SHARDLINE_LOAD_MINUTE_MS. */
  readonly minuteMs: number;
  /** The map the shards are of: figures of another map's shards are not comparable. */
  readonly mapVersion: number;
  /** Shards up to the highest one with any figure (the rest had none). */
  readonly shardCount: number;
  /** Per figure, an array indexed by shard. */
  readonly figures: { readonly [F in Figure]: readonly number[] };
  /** Space-Saving sketches of the written and the read values (normalized). */
  readonly written: SketchSummary;
  readonly read: SketchSummary;
  /** Per shard, a uniform sample of the values written: where writes land, for a re-cut when no one key is hot. */
  readonly writeSamples?: readonly (readonly string[])[];
  /** A grouped collection's writes and write units per group, each cut to GROUP_SKETCH_BYTES (older records: none). */
  readonly groups?: { readonly writes: SketchSummary; readonly writeUnits: SketchSummary };
}

/**
 * Groups a record's group sketch counts at most (one with over 1/100 of the minute's writes is always among
 * them), and the most bytes of group values it holds: a value may be 2 KB, the record must stay far from 400 KB.
 */
export const GROUP_KEYS = 100;
export const GROUP_SKETCH_BYTES = 24_000;

/** Written values sampled per shard and minute, and in one record at most (shared among the shards written). */
export const SAMPLES_PER_SHARD = 256;
export const SAMPLES_PER_RECORD = 4096;

/** A partition's limits (DynamoDB's documented per-partition throughput). */
export const PARTITION_WCU = 1000;
export const PARTITION_RCU = 3000;
