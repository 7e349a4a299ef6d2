import type { KeyCounts } from '../boundaries/key-counts';
import type { ShardStrategy } from '../core/strategies/strategy';
import type { FleetLoad } from '../load/fleet-load';

/** The weights' scale: integers the cut works on, fine enough for any shard count it is asked. */
const SCALE = 1_000_000;

/**
 * The live keys weighted by observed load instead of item counts (DESIGN §12): each key
 * takes its shard's load (partition share, over the window) in proportion to the items
 * that carry it — a hot key its own observed share first — so cutting these counts
 * evenly evens the load, not the items. Every key keeps a weight of at least 1: a key
 * with no load still has to live somewhere.
 */
export function loadWeightedCounts(
  keys: KeyCounts<readonly string[]>,
  strategy: ShardStrategy,
  load: FleetLoad,
): KeyCounts<readonly string[]> {
  const shardOf = keys.values.map((value) => strategy.shardsForValue(value));
  const itemsIn = new Array<number>(strategy.shardCount).fill(0);
  keys.values.forEach((_, i) => {
    for (const shard of shardOf[i]!) itemsIn[shard]! += keys.counts[i]! / shardOf[i]!.length;
  });
  // A hot key's observed share is its own; what is left of its shard's load goes to the others.
  const hot = new Map<string, number>();
  const left = load.shards.map((shard) => shard.partitionShare);
  const unitsPerWrite = unitsPerWriteOf(load);
  for (const key of load.hotWrites.keys) {
    const share = ((key.count - key.error) / load.windowSeconds) * (unitsPerWrite / 1000);
    if (share <= 0) continue;
    hot.set(key.key, share);
  }
  keys.values.forEach((value, i) => {
    const share = hot.get(value);
    if (share === undefined) return;
    for (const shard of shardOf[i]!) left[shard] = Math.max(0, left[shard]! - share / shardOf[i]!.length);
  });
  const raw = keys.values.map((value, i) => {
    const own = hot.get(value);
    if (own !== undefined) return own;
    let share = 0;
    for (const shard of shardOf[i]!) {
      if (itemsIn[shard]! > 0) share += (left[shard]! * keys.counts[i]!) / shardOf[i]!.length / itemsIn[shard]!;
    }
    return share;
  });
  const total = raw.reduce((a, b) => a + b, 0);
  const counts = new Uint32Array(raw.length);
  let sum = 0;
  raw.forEach((weight, i) => {
    counts[i] = Math.max(1, Math.round(total > 0 ? (weight / total) * SCALE : keys.counts[i]!));
    sum += counts[i]!;
  });
  return { values: keys.values, counts, total: sum };
}

function unitsPerWriteOf(load: FleetLoad): number {
  const writes = load.shards.reduce((sum, s) => sum + s.writesPerSecond, 0);
  const units = load.shards.reduce((sum, s) => sum + s.writeUnitsPerSecond, 0);
  return writes > 0 ? units / writes : 1;
}
