import type { Candidates } from './cut-candidates';
import { positionOf, type CutWindows } from './cut-windows';
import { EPS } from './load-model';

/** Cost of taking candidate `cand` as cut `k` (lower is better). */
export type CutCost = (cand: number, k: number) => number;

/**
 * Picks one candidate per cut (cuts 1..shards-1, index 0 unused; undefined when none can), minimizing
 * the summed cost, with no shard over `max` items, no forced cut skipped and cuts strictly increasing.
 * Dynamic programming over the windows: cut k at b costs cost(b, k) plus the best cut k - 1 at some a
 * with pos[b] - pos[a] <= max and no forced candidate between. That range of a only moves forward as b
 * does, so a monotone deque gives each minimum in O(1). Ties keep the earliest predecessor (deterministic).
 */
export function chooseCuts(
  cands: Candidates,
  total: number,
  shards: number,
  max: number,
  windows: CutWindows,
  cost: CutCost,
): Int32Array | undefined {
  const cuts = shards - 1;
  const tol = max * (1 + EPS);
  const at = (i: number): number => positionOf(cands, total, i);
  const forced = cands.forcedList;

  // Layer 0 is the start (candidate -1, position 0) at cost 0.
  let prevLo = -1;
  let prevHi = -1;
  let prevCost = new Float64Array([0]);
  const backs: Int32Array[] = [];
  for (let k = 1; k <= cuts; k++) {
    const lo = windows.lo[k]!;
    const hi = windows.hi[k]!;
    const layer = new Float64Array(hi - lo + 1);
    const back = new Int32Array(hi - lo + 1);
    const deque = new Int32Array(prevHi - prevLo + 1);
    let head = 0;
    let tail = 0;
    let push = prevLo; // next predecessor to enter the deque
    let low = prevLo; // first predecessor close enough to b
    let f = 0; // forced[f] is the first forced candidate >= b
    for (let b = lo; b <= hi; b++) {
      for (; push <= prevHi && push < b; push++) {
        const c = prevCost[push - prevLo]!;
        if (c !== Infinity) {
          while (tail > head && prevCost[deque[tail - 1]! - prevLo]! > c) tail--;
          deque[tail++] = push;
        }
      }
      const posB = at(b);
      while (low < b && at(low) < posB - tol) low++;
      while (f < forced.length && forced[f]! < b) f++;
      const first = Math.max(low, f > 0 ? forced[f - 1]! : -1);
      while (head < tail && deque[head]! < first) head++;
      // -2: no predecessor, and so no way to reach b.
      const a = head < tail ? deque[head]! : -2;
      layer[b - lo] = a === -2 ? Infinity : prevCost[a - prevLo]! + cost(b, k);
      back[b - lo] = a;
    }
    backs.push(back);
    prevCost = layer;
    prevLo = lo;
    prevHi = hi;
  }

  // The end (all items) closes the last shard: it must be within max of the last
  // cut, with no forced candidate after that cut.
  const lastForced = forced.at(-1) ?? -1;
  let best = -2;
  let bestCost = Infinity;
  for (let a = Math.max(prevLo, lastForced); a <= prevHi; a++) {
    const c = prevCost[a - prevLo]!;
    if (total - at(a) <= tol && c < bestCost) {
      bestCost = c;
      best = a;
    }
  }
  if (best === -2) return undefined;
  const chosen = new Int32Array(shards);
  for (let k = cuts, b = best; k >= 1; k--) {
    chosen[k] = b;
    b = backs[k - 1]![b - windows.lo[k]!]!;
  }
  return chosen;
}
