import { utf8Length } from '../core/collation';
import type { HeavyHitter, SketchSummary } from '../core/space-saving';
import type { HotKeys } from './fleet-load';

/** A counter's JSON beside its key (`{"key":"","count":…,"error":…}`), counted against the bytes. */
const COUNTER_OVERHEAD_BYTES = 48;

/**
 * The sketch's largest counters whose keys fit in `maxBytes`, as a sketch of that many counters. Space-Saving's
 * bounds hold: a dropped key's count is at most the smallest kept one, what a full sketch charges an absent key.
 */
export function cutToBytes(summary: SketchSummary, maxBytes: number): SketchSummary {
  const kept: HeavyHitter[] = [];
  let bytes = 0;
  for (const counter of summary.counters) {
    bytes += utf8Length(counter.key) + COUNTER_OVERHEAD_BYTES;
    if (bytes > maxBytes && kept.length > 0) break;
    kept.push(counter);
  }
  if (kept.length === summary.counters.length) return summary;
  return { capacity: kept.length, total: summary.total, counters: kept };
}

/** One group's rate over a window, per second: its true rate lies in [atLeast, atMost]. */
export interface GroupRate {
  readonly atMost: number;
  readonly atLeast: number;
  /** Whether the sketch counts the group (else `atMost` is what any group it left out may have had). */
  readonly tracked: boolean;
}

/** The group's rate in a merged group sketch over `seconds`. */
export function groupRate(hot: HotKeys, group: string, seconds: number): GroupRate {
  const counter = hot.keys.find((key) => key.key === group);
  if (!counter) return { atMost: hot.errorBound / seconds, atLeast: 0, tracked: false };
  return { atMost: counter.count / seconds, atLeast: (counter.count - counter.error) / seconds, tracked: true };
}
