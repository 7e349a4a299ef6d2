import { z } from 'zod';
import { compareKeys, sortedKeys } from '../collation';
import { invalidRequest } from '../errors';
import { registerStrategy } from './registry';
import type { ShardStrategy, ValueBound, ValueRange } from './strategy';

/**
 * Shard i holds the values in [boundaries[i], boundaries[i + 1]), so a listing reads shards one after another.
 * A value repeated at i..j is a heavy hitter: its writes spread over shards i..j, read as one merged group.
 */
export function rangeStrategy(boundaries: readonly string[]): ShardStrategy {
  validateBoundaries(boundaries);
  const frozen = Object.freeze([...boundaries]);
  const shardCount = boundaries.length;
  // runStart[s]..runEnd[s]: the run of equal boundaries shard s belongs to.
  const runStart = Array.from(boundaries, (_, s) => s);
  const runEnd = Array.from(boundaries, (_, s) => s);
  for (const { shards } of heavyHitters(boundaries)) {
    for (const s of shards) {
      runStart[s] = shards[0]!;
      runEnd[s] = shards.at(-1)!;
    }
  }

  const bisect = sortedKeys(boundaries);
  const shardOf = (normalized: string): number => bisect.bisectRight(normalized) - 1;
  const isHeavy = (shard: number, normalized: string): boolean =>
    runStart[shard] !== runEnd[shard] && boundaries[shard] === normalized;

  const firstShard = (bound: ValueBound | undefined): number => {
    if (!bound) return 0;
    const shard = shardOf(bound.value);
    // The bound value itself may sit on any shard of its heavy-hitter run.
    return bound.inclusive && isHeavy(shard, bound.value) ? runStart[shard]! : shard;
  };
  const lastShard = (bound: ValueBound | undefined): number => {
    if (!bound) return shardCount - 1;
    return bound.inclusive ? shardOf(bound.value) : bisect.bisectLeft(bound.value) - 1;
  };

  return {
    kind: 'range',
    config: Object.freeze({ kind: 'range', boundaries: frozen }),
    shardCount,
    boundaries: frozen,
    shardForWrite(normalized, random) {
      const shard = shardOf(normalized);
      if (!isHeavy(shard, normalized)) return shard;
      const first = runStart[shard]!;
      return first + Math.floor(random() * (runEnd[shard]! - first + 1));
    },
    shardsForValue(normalized) {
      const shard = shardOf(normalized);
      return isHeavy(shard, normalized) ? span(runStart[shard]!, runEnd[shard]!) : [shard];
    },
    groupsForRange(range: ValueRange) {
      const first = firstShard(range.lower);
      const last = lastShard(range.upper);
      const groups: number[][] = [];
      for (let s = first; s <= last; s = runEnd[s]! + 1) {
        // A run is merged whole only where the range can reach its shared value.
        const start = Math.max(runStart[s]!, first);
        groups.push(span(start, Math.min(runEnd[s]!, last)));
      }
      return groups;
    },
  };
}

registerStrategy({
  name: 'range',
  description: 'sorted boundaries: each shard holds one interval of values and listings read shards in order',
  configSchema: z.object({ kind: z.literal('range'), boundaries: z.array(z.string()).min(1) }),
  create: (config) => rangeStrategy(config.boundaries),
});

function span(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** Boundaries start at '' (every value has a shard) and never decrease. */
export function validateBoundaries(boundaries: readonly string[]): void {
  if (boundaries.length === 0) throw invalidRequest('boundaries: at least one boundary is needed');
  if (boundaries[0] !== '')
    throw invalidRequest("boundaries: the first boundary must be '' so that every value has a shard");
  for (let i = 1; i < boundaries.length; i++) {
    if (compareKeys(boundaries[i - 1]!, boundaries[i]!) > 0) {
      throw invalidRequest(
        `boundaries: not in code point order at index ${i}` +
          ` (${JSON.stringify(boundaries[i - 1])} > ${JSON.stringify(boundaries[i])})`,
      );
    }
  }
}

/** Each repeated value and its shards. */
export function heavyHitters(boundaries: readonly string[]): { value: string; shards: number[] }[] {
  const runs: { value: string; shards: number[] }[] = [];
  for (let i = 0; i < boundaries.length; ) {
    let j = i;
    while (j + 1 < boundaries.length && boundaries[j + 1] === boundaries[i]) j++;
    if (j > i) runs.push({ value: boundaries[i]!, shards: span(i, j) });
    i = j + 1;
  }
  return runs;
}
