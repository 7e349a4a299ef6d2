import { invalidRequest } from '../core/errors';
import { inWords, sortedStrategyNames, strategyNames, type StrategyKind } from '../core/strategies';

/**
 * How many shards a sorted index needs from DynamoDB's per-partition limits and billing
 * (docs/boundaries.md, "How many shards"): reads are billed per Query in whole 4 KB units, writes
 * per item in whole 1 KB units; a `range` listing reads one shard, any other strategy every shard.
 */
export const PARTITION_RCU = 3000;
export const PARTITION_WCU = 1000;
export const RCU_BYTES = 4096;
export const WCU_BYTES = 1024;
/** Largest shard count the plan tries for a fan-out listing. */
export const MAX_PLAN_SHARDS = 10_000;

export interface CapacityInput {
  /** Size of one index item in bytes (keys plus projected attributes). */
  readonly itemBytes: number;
  /** Listing queries per second. */
  readonly readsPerSecond: number;
  /** Items one query returns. */
  readonly itemsPerQuery: number;
  /** Item writes per second into the index. */
  readonly writesPerSecond: number;
  /** Strongly consistent reads (GSIs only offer eventual consistency). */
  readonly consistent?: boolean;
  /** How listings read the shards (default `range`). */
  readonly strategy?: StrategyKind;
}

export interface CapacityPlan {
  /** Shards needed, or null when no shard count serves the listings (fan-out past a partition's limit). */
  readonly shards: number | null;
  /** Which limit decides the shard count. */
  readonly bindingLimit: 'reads' | 'write bytes' | 'write units';
  readonly reads: ReturnType<typeof listingCost> & {
    readonly strategy: StrategyKind;
    readonly partitionRcu: number;
    /** Shards the reads alone need, or null when none suffice. */
    readonly shards: number | null;
  };
  readonly writeBytes: {
    readonly bytesPerSecond: number;
    readonly partitionBytesPerSecond: number;
    readonly shards: number;
  };
  readonly writeUnits: {
    readonly unitsPerItem: number;
    readonly unitsPerSecond: number;
    readonly partitionUnitsPerSecond: number;
    readonly shards: number;
  };
}

/** Shards needed so that no partition exceeds its read or write limit; at least 1. Bad input: `invalid_request`. */
export function capacityPlan(input: CapacityInput): CapacityPlan {
  const { itemBytes, readsPerSecond, itemsPerQuery, writesPerSecond } = input;
  for (const [name, value] of Object.entries({ itemBytes, readsPerSecond, itemsPerQuery, writesPerSecond })) {
    if (!Number.isFinite(value) || value < 0)
      throw invalidRequest(`${name} must be a non-negative number, got ${value}`);
  }
  if (itemBytes === 0) throw invalidRequest('itemBytes must be positive');
  const strategy = input.strategy ?? 'range';
  if (!strategyNames().includes(strategy)) {
    throw invalidRequest(`strategy must be ${inWords(sortedStrategyNames('range'))}, not ${strategy}`);
  }

  const bytesPerSecond = itemBytes * writesPerSecond;
  const partitionBytesPerSecond = PARTITION_WCU * WCU_BYTES;
  const bytes = { bytesPerSecond, partitionBytesPerSecond, shards: needed(bytesPerSecond, partitionBytesPerSecond) };
  const unitsPerItem = Math.ceil(itemBytes / WCU_BYTES);
  const unitsPerSecond = unitsPerItem * writesPerSecond;
  const units = {
    unitsPerItem,
    unitsPerSecond,
    partitionUnitsPerSecond: PARTITION_WCU,
    shards: needed(unitsPerSecond, PARTITION_WCU),
  };
  const writeShards = Math.max(bytes.shards, units.shards);

  const { shards: readShards, floor } = shardsForReads(input, strategy);
  // Reported at the shard count chosen (more shards never make a listing dearer per shard), or,
  // when none serves, at the fewest shards past which more no longer help.
  const at = Math.max(readShards ?? floor, writeShards);
  const reads = { strategy, partitionRcu: PARTITION_RCU, shards: readShards, ...listingCost(input, strategy, at) };
  const shards = readShards === null ? null : Math.max(1, readShards, writeShards);
  const bindingLimit =
    shards === null || readShards === shards ? 'reads' : bytes.shards === shards ? 'write bytes' : 'write units';
  return { shards, bindingLimit, reads, writeBytes: bytes, writeUnits: units };
}

/** What one listing costs with `shards` shards: its Queries, each rounded up to whole 4 KB units. */
function listingCost(input: CapacityInput, strategy: StrategyKind, shards: number) {
  const fanOut = strategy !== 'range';
  const queriesPerListing = fanOut ? shards : 1;
  const itemsPerQuery = fanOut ? Math.ceil(input.itemsPerQuery / shards) : input.itemsPerQuery;
  // A Query that finds nothing is still billed one unit.
  const unitsPerQuery = Math.max(1, Math.ceil((itemsPerQuery * input.itemBytes) / RCU_BYTES - 1e-9));
  const rcuPerQuery = unitsPerQuery * (input.consistent ? 1 : 0.5);
  // The busiest shard (all alike, for an even load): a range listing lands on one shard, so listings share
  // the shards; a fan-out one reaches them all.
  const rcuPerSecondPerShard = (input.readsPerSecond * rcuPerQuery) / (fanOut ? 1 : shards);
  return { queriesPerListing, itemsPerQuery, unitsPerQuery, rcuPerQuery, rcuPerSecondPerShard };
}

/**
 * The fewest shards whose busiest one stays within a partition's RCU, or null when none
 * does; `floor`: the shard count past which more shards no longer lower a shard's load.
 */
function shardsForReads(input: CapacityInput, strategy: StrategyKind): { shards: number | null; floor: number } {
  if (input.readsPerSecond === 0) return { shards: 1, floor: 1 };
  if (strategy === 'range') {
    const shards = needed(listingCost(input, strategy, 1).rcuPerSecondPerShard, PARTITION_RCU);
    return { shards, floor: shards };
  }
  // Per-shard cost falls with the shard count only until each Query reads one unit: search up to there.
  for (let shards = 1; shards <= MAX_PLAN_SHARDS; shards++) {
    const cost = listingCost(input, strategy, shards);
    if (cost.rcuPerSecondPerShard <= PARTITION_RCU + 1e-9) return { shards, floor: shards };
    if (cost.unitsPerQuery === 1) return { shards: null, floor: shards };
  }
  return { shards: null, floor: MAX_PLAN_SHARDS };
}

/** Partitions needed for a load against a per-partition limit (a tiny epsilon absorbs float noise). */
function needed(load: number, limit: number): number {
  return Math.max(1, Math.ceil(load / limit - 1e-9));
}
