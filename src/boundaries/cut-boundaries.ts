import { chooseCuts } from './choose-cuts';
import { cutCandidates, type Candidates } from './cut-candidates';
import { cutWindows, firstAtLeast, positionOf, type CutWindows } from './cut-windows';
import type { KeyCounts } from './key-counts';
import { loadModel } from './load-model';
import { minMaxLoad } from './min-max-load';
import { codePointLength, shortestSeparator, shortestSeparatorLength } from './separator';

export interface CutOptions {
  readonly shards: number;
  /**
   * How far above the mean a shard may go for a shorter boundary, as a fraction of the mean. The
   * best achievable balance is always allowed: heavy hitters or coarse counts never make it impossible.
   */
  readonly tolerance?: number;
  /** Cap on the search size (window entries); larger inputs get less room to move. */
  readonly searchBudget?: number;
}

export interface CutResult {
  /** boundaries[0] is ''; code point order; a heavy hitter's value repeats. */
  readonly boundaries: string[];
  /** Items per shard with the spread rule (fractional on spread values). */
  readonly loads: Float64Array;
  /** The smallest largest-shard load any cutting reaches. */
  readonly bestMax: number;
  /** The largest-shard load the boundaries were allowed to reach. */
  readonly allowedMax: number;
}

export const DEFAULT_TOLERANCE = 0.01;
const DEFAULT_SEARCH_BUDGET = 10_000_000;
/**
 * Characters a cut must save to move by (allowed max - mean) items off its balanced spot. At 1 cuts hardly move
 * on small shards (one item can be the whole tolerance); at 0.25 boundaries come out shorter and the max load
 * stays within the allowance by construction.
 */
const MOVE_COST = 0.25;

/**
 * Cuts sorted key counts into `shards` ranges, each cut named by its shortest separator
 * (docs/boundaries.md, "What it does"): the best largest-shard load M* (`minMaxLoad`) spreads
 * the heavy hitters; then, among the cuttings with no shard above A = max(M*, mean · (1 +
 * tolerance)), the one minimizing the summed separator lengths plus MOVE_COST times each cut's
 * distance (in units of A - mean) from its balanced spot. Deterministic. Throws when the keys
 * cannot fill that many shards.
 */
export function cutBoundaries(keys: KeyCounts, options: CutOptions): CutResult {
  const { shards } = options;
  if (!Number.isInteger(shards) || shards < 1) throw new Error(`shards must be a positive integer, got ${shards}`);
  if (keys.values.length === 0) throw new Error('no keys to cut');
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  if (!(tolerance >= 0)) throw new Error(`tolerance must be >= 0, got ${tolerance}`);
  const budget = options.searchBudget ?? DEFAULT_SEARCH_BUDGET;
  const total = keys.total;

  const model = loadModel(keys, shards);
  const bestMax = minMaxLoad(model, shards);
  const cands = cutCandidates(model, bestMax, shards - 1);
  const reference = cutWindows(cands, total, shards, bestMax);
  if (cands.count < shards - 1 || !reference.feasible) {
    throw new Error(
      `cannot cut ${shards} shards from ${keys.values.length} distinct keys (${total} items)` +
        `: too few keys for that many shards`,
    );
  }
  const at = (i: number): number => positionOf(cands, total, i);
  const target = new Float64Array(shards);
  for (let k = 1; k < shards; k++) target[k] = (at(reference.lo[k]!) + at(reference.hi[k]!)) / 2;

  let allowedMax = Math.max(bestMax, model.mean * (1 + tolerance));
  let windows: CutWindows = reference;
  for (;;) {
    if (allowedMax <= bestMax) {
      allowedMax = bestMax;
      windows = reference.size <= budget ? reference : narrowed(cands, reference, target, budget);
      break;
    }
    const wide = cutWindows(cands, total, shards, allowedMax);
    if (wide.feasible && wide.size <= budget) {
      windows = wide;
      break;
    }
    // Too large a search: halve the room to move, down to the best max itself.
    const next = bestMax + (allowedMax - bestMax) / 2;
    allowedMax = next - bestMax < bestMax * 1e-9 ? bestMax : next;
  }

  const lengths = separatorLengths(keys, cands);
  const scale = Math.max(allowedMax - model.mean, 1);
  const cost = (b: number, k: number): number => lengths(b) + (MOVE_COST * Math.abs(at(b) - target[k]!)) / scale;
  // The greedy packing under the best max is a valid cutting when the search fails.
  const chosen = chooseCuts(cands, total, shards, allowedMax, windows, cost) ?? reference.hi;

  const boundaries = [''];
  for (let k = 1; k < shards; k++) boundaries.push(boundaryAt(keys, cands, chosen[k]!));
  const cutAt = (k: number): number => (k === 0 ? -1 : k === shards ? cands.count : chosen[k]!);
  const loads = Float64Array.from({ length: shards }, (_, k) => at(cutAt(k + 1)) - at(cutAt(k)));
  return { boundaries, loads, bestMax, allowedMax };
}

/**
 * The reference windows cut down to a band around each cut's balanced spot, within the search
 * budget: heavy hitters can leave so much slack that even the best max allows millions of
 * positions per cut. The band may hold no solution: the caller then cuts greedily.
 */
function narrowed(cands: Candidates, reference: CutWindows, target: Float64Array, budget: number): CutWindows {
  const shards = reference.lo.length;
  const lo = new Int32Array(shards);
  const hi = new Int32Array(shards);
  let half = Math.max(1, Math.floor(budget / (2 * Math.max(1, shards - 1))));
  for (;;) {
    let size = 0;
    let feasible = true;
    for (let k = 1; k < shards; k++) {
      const center = Math.min(Math.max(firstAtLeast(cands.pos, target[k]!), reference.lo[k]!), reference.hi[k]!);
      lo[k] = Math.max(reference.lo[k]!, center - half);
      hi[k] = Math.min(reference.hi[k]!, center + half);
      size += hi[k]! - lo[k]! + 1;
      if (lo[k]! > hi[k]!) feasible = false;
    }
    if (size <= budget || half === 1) return { lo, hi, size, feasible };
    half = Math.max(1, Math.floor(half / 2));
  }
}

function boundaryAt(keys: KeyCounts, cands: Candidates, b: number): string {
  const v = cands.value[b]!;
  return cands.forced[b] ? keys.values.at(v)! : shortestSeparator(keys.values.at(v - 1)!, keys.values.at(v)!);
}

/** Separator length of each candidate in code points, computed once on demand. */
function separatorLengths(keys: KeyCounts, cands: Candidates): (b: number) => number {
  const cache = new Int32Array(cands.count).fill(-1);
  return (b) => {
    const v = cands.value[b]!;
    if (cache[b]! < 0) {
      cache[b] = cands.forced[b]
        ? codePointLength(keys.values.at(v)!)
        : shortestSeparatorLength(keys.values.at(v - 1)!, keys.values.at(v)!);
    }
    return cache[b]!;
  };
}
