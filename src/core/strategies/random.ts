import { z } from 'zod';
import { registerStrategy, shardCountSchema } from './registry';
import { allShards, type ShardStrategy } from './strategy';

/** Uniformly random shards: the best write spread, but every read, even of one value, merges all shards. */
export function randomStrategy(shardCount: number): ShardStrategy {
  return {
    kind: 'random',
    config: Object.freeze({ kind: 'random', shards: shardCount }),
    shardCount,
    shardForWrite: (_normalized, random) => Math.floor(random() * shardCount),
    shardsForValue: () => allShards(shardCount),
    groupsForRange: () => [allShards(shardCount)],
  };
}

registerStrategy({
  name: 'random',
  description: 'a uniformly random shard per write; every read merges all shards',
  configSchema: z.object({ kind: z.literal('random'), shards: shardCountSchema }),
  create: (config) => randomStrategy(config.shards),
});
