/** The name a strategy is registered under (registry.ts). */
export type StrategyKind = string;

/** Its `kind` plus whatever its config schema holds (`{kind: 'hash', shards: 21}`). */
export interface StrategyConfig {
  readonly kind: StrategyKind;
  readonly [parameter: string]: unknown;
}

export interface ValueBound {
  readonly value: string;
  readonly inclusive: boolean;
}

/** An interval of normalized values; a missing side is unbounded. */
export interface ValueRange {
  readonly lower?: ValueBound;
  readonly upper?: ValueBound;
}

/**
 * Which shard a write of a normalized value goes to, and which shards may hold a value or a range, as shard
 * groups: each group is k-way merged and the groups are concatenated (hash, random: one group of all shards;
 * range: one per shard, heavy-hitter runs merged). test/unit/strategies/contract.ts checks the contract.
 */
export interface ShardStrategy {
  readonly kind: StrategyKind;
  /** JSON: `strategyFromConfig` of it gives the same strategy. Shard maps are stored this way. */
  readonly config: StrategyConfig;
  readonly shardCount: number;
  /** A `range` strategy's: shard i starts at boundaries[i]. */
  readonly boundaries?: readonly string[];
  /** `random` (a float in [0, 1), spreads `random` and heavy hitters) is a parameter so tests can pin it. */
  shardForWrite(normalized: string, random: () => number): number;
  /** Every shard a write of `normalized` may land on, ascending, without repeats. */
  shardsForValue(normalized: string): number[];
  /**
   * Groups in ascending value order, each ascending, no shard in two, covering every shard a
   * value in `range` may be written to. Empty when the range can hold nothing.
   */
  groupsForRange(range: ValueRange): number[][];
}

export function allShards(count: number): number[] {
  return Array.from({ length: count }, (_, shard) => shard);
}

/** The same strategy: equal configs (canonical as `strategyFromConfig` gives them, key order included). */
export function sameStrategy(a: Pick<ShardStrategy, 'config'>, b: Pick<ShardStrategy, 'config'>): boolean {
  return JSON.stringify(a.config) === JSON.stringify(b.config);
}
