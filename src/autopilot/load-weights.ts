import { type KeyCounts, keyCountsFromMap } from '../boundaries/key-counts';
import type { ShardStrategy } from '../core/strategies/strategy';
import type { FleetLoad } from '../load/fleet-load';
import { PARTITION_RCU, PARTITION_WCU } from '../load/load-record';

/** The weights' scale: integers the cut works on, fine enough for any shard count it is asked. */
const SCALE = 1_000_000;

/**
 * Sampled writes a shard needs before they carry half its write load; the rest is spread over its
 * live items. A cut made from a window tail's few dozen samples alone lands between far-apart samples.
 */
const EVIDENCE_SAMPLES = 64;

/**
 * The keys to cut from, weighted by observed load instead of item counts (docs/autopilot.md, step 4),
 * in shares of a partition's limits, so cutting these weights evenly evens the load.
 */
export function loadWeightedCounts(
  counts: ReadonlyMap<string, number>,
  strategy: ShardStrategy,
  load: FleetLoad,
): KeyCounts<readonly string[]> {
  const itemsIn = new Array<number>(strategy.shardCount).fill(0);
  const shardsOf = new Map<string, number[]>();
  for (const [value, count] of counts) {
    const shards = strategy.shardsForValue(value);
    shardsOf.set(value, shards);
    for (const shard of shards) itemsIn[shard]! += count / shards.length;
  }
  const weights = new Map<string, number>();
  const add = (value: string, weight: number) => weights.set(value, (weights.get(value) ?? 0) + weight);
  // Per shard: the load its live items share, per item.
  const perItem = load.shards.map((shard, i) => {
    const samples = load.writeSamples[i] ?? [];
    const writeShare = shard.writeUnitsPerSecond / PARTITION_WCU;
    const readShare = shard.readUnitsPerSecond / PARTITION_RCU;
    const sampledUnits = samples.reduce((sum, sample) => sum + sample.units, 0);
    // Writes where they landed, as far as the samples are evidence; the rest spread like the reads.
    const evidence =
      sampledUnits === 0 ? 0 : itemsIn[i] === 0 ? 1 : samples.length / (samples.length + EVIDENCE_SAMPLES);
    for (const sample of samples) add(sample.value, (writeShare * evidence * sample.units) / sampledUnits);
    const spread = readShare + writeShare * (1 - evidence);
    return itemsIn[i]! > 0 ? spread / itemsIn[i]! : 0;
  });
  for (const [value, count] of counts) {
    const shards = shardsOf.get(value)!;
    const weight = shards.reduce((sum, shard) => sum + ((perItem[shard] ?? 0) * count) / shards.length, 0);
    if (weight > 0) add(value, weight);
  }
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const scaled = new Map([...counts.keys()].map((value) => [value, 1]));
  for (const [value, weight] of weights) {
    scaled.set(value, Math.max(1, Math.round(total > 0 ? (weight / total) * SCALE : 1)));
  }
  return keyCountsFromMap(scaled);
}
