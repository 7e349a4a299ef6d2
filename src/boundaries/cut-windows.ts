import type { Candidates } from './cut-candidates';
import { EPS } from './load-model';
import { partitionPoint } from '../core/partition-point';

/**
 * The candidates each cut can take in some solution with no shard over `max`: cut k (1-based) lies in
 * [lo[k], hi[k]], `hi` from packing greedily from the left (no solution's k-th cut is later), `lo` from the right.
 * A solution never skips a forced cut and never takes one candidate twice.
 */
export interface CutWindows {
  readonly lo: Int32Array;
  readonly hi: Int32Array;
  /** Sum of the window widths: the size of the search over them. */
  readonly size: number;
  readonly feasible: boolean;
}

/** Position of candidate i, with -1 the start (0 items) and `count` the end (all items). */
export function positionOf(cands: Candidates, total: number, i: number): number {
  return i < 0 ? 0 : i >= cands.count ? total : cands.pos[i]!;
}

/** The first forced candidate after `a`, or `cands.count` when none is left. */
function nextForced({ forcedList, count }: Candidates, a: number): number {
  return forcedList[partitionPoint(0, forcedList.length, (i) => forcedList[i]! <= a)] ?? count;
}

/** The last forced candidate before `b`, or -1 when there is none. */
function previousForced({ forcedList }: Candidates, b: number): number {
  return forcedList[partitionPoint(0, forcedList.length, (i) => forcedList[i]! < b) - 1] ?? -1;
}

/** Index of the first candidate at or after position x (count when none). */
export function firstAtLeast(pos: Float64Array, x: number): number {
  return partitionPoint(0, pos.length, (i) => pos[i]! < x);
}

/** Index of the first candidate strictly after position x (count when none). */
function firstAbove(pos: Float64Array, x: number): number {
  return partitionPoint(0, pos.length, (i) => pos[i]! <= x);
}

export function cutWindows(cands: Candidates, total: number, shards: number, max: number): CutWindows {
  const cuts = shards - 1;
  const count = cands.count;
  const tol = max * (1 + EPS);
  const lo = new Int32Array(shards);
  const hi = new Int32Array(shards);
  let a = -1;
  for (let k = 1; k <= cuts; k++) {
    const reach = firstAbove(cands.pos, positionOf(cands, total, a) + tol) - 1;
    a = Math.min(reach, nextForced(cands, a), count - 1 - (cuts - k));
    hi[k] = a;
  }
  let b = count;
  for (let k = cuts; k >= 1; k--) {
    const earliest = firstAtLeast(cands.pos, positionOf(cands, total, b) - tol);
    b = Math.max(earliest, previousForced(cands, b), k - 1);
    lo[k] = b;
  }
  let size = 0;
  let feasible = true;
  for (let k = 1; k <= cuts; k++) {
    if (lo[k]! > hi[k]!) feasible = false;
    else size += hi[k]! - lo[k]! + 1;
  }
  return { lo, hi, size, feasible };
}
