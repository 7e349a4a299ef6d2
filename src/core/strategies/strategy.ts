/**
 * A shard strategy answers three questions about a collection's normalized values:
 * which shard a write goes to, which shards may hold a value or a range of values,
 * and in which order shard groups are read for a sorted listing.
 *
 * Every read is planned as an ordered list of shard groups: the shards of one group
 * are k-way merged, and the groups are concatenated. That single shape serves all
 * three strategies (hash and random: one group of all shards; range: one group per
 * shard, heavy-hitter runs merged into one group).
 */
export type StrategyKind = 'random' | 'hash' | 'range';

/** A bound on normalized values. */
export interface ValueBound {
  readonly value: string;
  readonly inclusive: boolean;
}

/** An interval of normalized values; a missing side is unbounded. */
export interface ValueRange {
  readonly lower?: ValueBound;
  readonly upper?: ValueBound;
}

export interface ShardStrategy {
  readonly kind: StrategyKind;
  readonly shardCount: number;
  /** The sorted boundaries of a `range` strategy (shard i starts at boundaries[i]). */
  readonly boundaries?: readonly string[];
  /**
   * The shard a write of `normalized` lands on. `random` returns a float in [0, 1)
   * and is used by `random` and by heavy-hitter spreading; it is a parameter so that
   * tests can pin it.
   */
  shardForWrite(normalized: string, random: () => number): number;
  /** Every shard that may hold items whose normalized value equals `normalized`, ascending. */
  shardsForValue(normalized: string): number[];
  /**
   * The shard groups that may hold values in `range`, in ascending value order:
   * concatenating the merged groups gives the ascending listing. Empty when the range
   * can hold nothing.
   */
  groupsForRange(range: ValueRange): number[][];
}

export function allShards(count: number): number[] {
  return Array.from({ length: count }, (_, shard) => shard);
}
