/**
 * A shard strategy answers three questions about a collection's normalized values:
 * which shard a write goes to, which shards may hold a value or a range of values,
 * and in which order shard groups are read for a sorted listing.
 *
 * Every read is planned as an ordered list of shard groups: the shards of one group
 * are k-way merged, and the groups are concatenated. That single shape serves every
 * strategy (hash and random: one group of all shards; range: one group per shard,
 * heavy-hitter runs merged into one group).
 *
 * Strategies are registered by name (registry.ts); the contract every one of them
 * must hold is checked by test/unit/strategies/contract.ts.
 */

/** The name a strategy is registered under (`'random'`, `'hash'`, `'range'`, …). */
export type StrategyKind = string;

/**
 * A strategy's parameters as JSON: its registered `kind` plus whatever its config
 * schema holds (`{kind: 'hash', shards: 21}`, `{kind: 'range', boundaries: [...]}`).
 */
export interface StrategyConfig {
  readonly kind: StrategyKind;
  readonly [parameter: string]: unknown;
}

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
  /**
   * The parameters this strategy was built from, JSON-serializable: handing them to
   * `strategyFromConfig` (after any JSON round trip) gives a strategy with the same
   * config and the same answers. Shard maps are stored this way.
   */
  readonly config: StrategyConfig;
  readonly shardCount: number;
  /** The sorted boundaries of a `range` strategy (shard i starts at boundaries[i]). */
  readonly boundaries?: readonly string[];
  /**
   * The shard a write of `normalized` lands on, in [0, shardCount). `random` returns
   * a float in [0, 1) and is used by `random` and by heavy-hitter spreading; it is a
   * parameter so that tests can pin it.
   */
  shardForWrite(normalized: string, random: () => number): number;
  /**
   * Every shard a write of `normalized` may land on, ascending and without repeats:
   * reading one value merges exactly these.
   */
  shardsForValue(normalized: string): number[];
  /**
   * The shard groups that may hold values in `range`, in ascending value order:
   * concatenating the merged groups gives the ascending listing. Each group is
   * ascending, no shard is in two groups, and every shard a value in the range may
   * be written to is in one. Empty when the range can hold nothing.
   */
  groupsForRange(range: ValueRange): number[][];
}

export function allShards(count: number): number[] {
  return Array.from({ length: count }, (_, shard) => shard);
}
