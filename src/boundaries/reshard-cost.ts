import type { KeyCounts } from './key-counts';
import { forEachPlacement } from './shard-loads';

export interface ReshardCost {
  /** Items whose shard (partition key `<prefix>#<shard>`) changes. */
  readonly moved: number;
  readonly total: number;
  readonly fraction: number;
  /** Items that move into each new shard. */
  readonly incoming: Float64Array;
}

/**
 * How many items would move if `next` replaced `current` as the boundaries (shards compare by index:
 * it names the partition). A heavy hitter's items on old-run shards outside the new run move.
 */
export function reshardCost(current: readonly string[], next: readonly string[], keys: KeyCounts): ReshardCost {
  const oldFirst = new Int32Array(keys.values.length);
  const oldLast = new Int32Array(keys.values.length);
  forEachPlacement(current, keys, (i, first, last) => {
    oldFirst[i] = first;
    oldLast[i] = last;
  });
  const incoming = new Float64Array(next.length);
  let moved = 0;
  forEachPlacement(next, keys, (i, first, last) => {
    const a = oldFirst[i]!;
    const b = oldLast[i]!;
    const overlap = Math.max(0, Math.min(b, last) - Math.max(a, first) + 1);
    const run = b - a + 1;
    const leaving = (keys.counts[i]! * (run - overlap)) / run;
    if (leaving === 0) return;
    moved += leaving;
    // Movers land uniformly on the new run (a plain value: on its one shard).
    const share = leaving / (last - first + 1);
    for (let s = first; s <= last; s++) incoming[s]! += share;
  });
  return { moved, total: keys.total, fraction: keys.total > 0 ? moved / keys.total : 0, incoming };
}
