/**
 * How many shards a sorted index needs, from DynamoDB's per-partition limits.
 *
 * A partition serves at most 3,000 read capacity units and 1,000 write capacity
 * units per second. One RCU reads 4 KB per second strongly consistent, or twice
 * that eventually consistent; one WCU writes 1 KB per second. So a partition reads
 * 3,000 × 4 KB × 2 ≈ 24 MB/s (eventually consistent; half that strongly) and writes
 * 1 MB/s — seed 004's figures. Reads are counted in bytes (a Query sums the items it
 * reads before rounding to 4 KB); writes also in whole write units, because every
 * item write is rounded up to 1 KB: a 500-byte item costs a full WCU, so small items
 * hit the 1,000 writes/s ceiling before 1 MB/s.
 */
export const PARTITION_RCU = 3000;
export const PARTITION_WCU = 1000;
export const RCU_BYTES = 4096;
export const WCU_BYTES = 1024;

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
}

export interface CapacityPlan {
  readonly shards: number;
  /** Which limit decides the shard count. */
  readonly bindingLimit: 'reads' | 'write bytes' | 'write units';
  readonly reads: {
    readonly bytesPerSecond: number;
    readonly partitionBytesPerSecond: number;
    readonly shards: number;
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

/** Shards needed so that no partition exceeds its read or write limit; at least 1. */
export function capacityPlan(input: CapacityInput): CapacityPlan {
  const { itemBytes, readsPerSecond, itemsPerQuery, writesPerSecond } = input;
  for (const [name, value] of Object.entries({ itemBytes, readsPerSecond, itemsPerQuery, writesPerSecond })) {
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got ${value}`);
  }
  if (itemBytes === 0) throw new Error('itemBytes must be positive');
  const readBytes = itemBytes * readsPerSecond * itemsPerQuery;
  const partitionRead = PARTITION_RCU * RCU_BYTES * (input.consistent ? 1 : 2);
  const writeBytes = itemBytes * writesPerSecond;
  const partitionWrite = PARTITION_WCU * WCU_BYTES;
  const unitsPerItem = Math.ceil(itemBytes / WCU_BYTES);
  const writeUnits = unitsPerItem * writesPerSecond;

  const reads = {
    bytesPerSecond: readBytes,
    partitionBytesPerSecond: partitionRead,
    shards: needed(readBytes, partitionRead),
  };
  const bytes = {
    bytesPerSecond: writeBytes,
    partitionBytesPerSecond: partitionWrite,
    shards: needed(writeBytes, partitionWrite),
  };
  const units = {
    unitsPerItem,
    unitsPerSecond: writeUnits,
    partitionUnitsPerSecond: PARTITION_WCU,
    shards: needed(writeUnits, PARTITION_WCU),
  };
  const shards = Math.max(1, reads.shards, bytes.shards, units.shards);
  const bindingLimit = reads.shards === shards ? 'reads' : bytes.shards === shards ? 'write bytes' : 'write units';
  return { shards, bindingLimit, reads, writeBytes: bytes, writeUnits: units };
}

/** Partitions needed for a load against a per-partition limit (a tiny epsilon absorbs float noise). */
function needed(load: number, limit: number): number {
  return Math.max(1, Math.ceil(load / limit - 1e-9));
}
