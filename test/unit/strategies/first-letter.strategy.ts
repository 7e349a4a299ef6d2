import { z } from 'zod';
import { registerStrategy, shardCountSchema, type ShardStrategy } from '../../../src/core/strategies';
import { allShards } from '../../../src/core/strategies/strategy';

/**
 * A test-only strategy, whole in this one file: a value's shard is its first code
 * point mod `shards` ('' on shard 0). Importing the file registers it; that it then
 * passes the contract suite and is accepted by config validation shows a strategy
 * needs no change anywhere else. Shards are not in value order, so a listing
 * merges all of them, like hash.
 */
export function firstLetterStrategy(shards: number): ShardStrategy {
  const shardOf = (normalized: string) => (normalized.codePointAt(0) ?? 0) % shards;
  const everyShard = allShards(shards);
  return {
    kind: 'first-letter',
    config: Object.freeze({ kind: 'first-letter', shards }),
    shardCount: shards,
    shardForWrite: shardOf,
    shardsForValue: (normalized) => [shardOf(normalized)],
    groupsForRange: () => [[...everyShard]],
  };
}

export const firstLetterDefinition = registerStrategy({
  name: 'first-letter',
  description: 'test only: first code point mod shards',
  configSchema: z.object({ kind: z.literal('first-letter'), shards: shardCountSchema }),
  create: (config) => firstLetterStrategy(config.shards),
});
