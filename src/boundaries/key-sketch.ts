import { SpaceSaving } from '../core/space-saving';
import type { KeySink, LinesAdded } from './key-arena';
import type { KeyCounts } from './key-counts';
import { QuantileSketch } from './quantile-sketch';

/** What a sketch guarantees about the counts it cuts from. */
export interface SketchBounds {
  readonly items: number;
  /** No position (items below a key) is off by more than this many items. */
  readonly rankError: number;
  /** A tracked heavy key's count is off by at most this. */
  readonly heavyError: number;
  /** Keys the quantile sketch holds, and its capacity per level. */
  readonly retained: number;
  readonly capacity: number;
}

/** Bytes one held key costs, roughly: its UTF-8 bytes, offsets, room to grow and its share of a sort. */
const BYTES_PER_KEY = 80;
/** Levels budgeted for: 2^12 · capacity items before the sketch outgrows its budget by one level. */
const LEVELS = 12;

/** The quantile sketch capacity that keeps the held keys within `bytes`. */
export function capacityFor(bytes: number): number {
  return Math.max(1_000, Math.floor(bytes / (BYTES_PER_KEY * LEVELS)));
}

/**
 * Bounded-memory key counts in one pass: a quantile sketch for where the cuts go, Space-Saving
 * for the heavy hitters' counts. Sketches of parts (files, scan segments) merge.
 */
export class KeySketch implements KeySink {
  readonly quantiles: QuantileSketch;
  readonly heavy: SpaceSaving;

  constructor(capacity: number, shards: number, seed?: number) {
    this.quantiles = new QuantileSketch(capacity, seed);
    // More counters than shards: every key heavier than a shard's mean is kept.
    this.heavy = new SpaceSaving(Math.max(1_024, 4 * shards));
  }

  add(key: string): void {
    this.quantiles.add(key);
    this.heavy.add(key);
  }

  addLines(text: string, ascii: boolean, firstLine: boolean): LinesAdded {
    const added = this.quantiles.addLines(text, ascii, firstLine);
    // The same lines as the quantile sketch kept: blank ones and those with U+0000 are not keys.
    for (const raw of text.split('\n')) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line !== '' && !line.includes('\0')) this.heavy.add(firstLine ? line.replace(/^\ufeff/, '') : line);
      firstLine = false;
    }
    return added;
  }

  merge(other: KeySketch): void {
    this.quantiles.merge(other.quantiles);
    this.heavy.merge(other.heavy);
  }

  get bounds(): SketchBounds {
    return {
      items: this.quantiles.total,
      rankError: this.quantiles.errorBound,
      heavyError: this.heavy.errorBound,
      retained: this.quantiles.retained,
      capacity: this.quantiles.capacity,
    };
  }

  /**
   * Weighted keys to cut from: the quantile sketch's keys, each standing for the items it
   * summarizes, a heavy key weighted by Space-Saving where that count is the tighter one.
   */
  keyCounts(shards: number): KeyCounts<readonly string[]> {
    const { values, weights } = this.quantiles.weighted();
    const total = this.quantiles.total;
    const keyError = 2 * this.quantiles.errorBound;
    let index: Map<string, number> | undefined;
    for (const hitter of this.heavy.top()) {
      if (hitter.count - hitter.error < total / shards / 2 || hitter.error / 2 >= keyError) continue;
      index ??= new Map(values.map((v, i) => [v, i]));
      const at = index.get(hitter.key);
      // A key heavier than half a shard is always among the sketch's keys; a miss is left as it is.
      if (at !== undefined) weights[at] = Math.max(1, Math.round(hitter.count - hitter.error / 2));
    }
    const counts = Uint32Array.from(weights);
    return { values, counts, total: counts.reduce((sum, c) => sum + c, 0) };
  }
}
