import { allShards, type ShardStrategy } from './strategy';

/**
 * Uniformly random shards: the best write spread, but a value can be anywhere, so
 * every read — even of one value — merges all shards.
 */
export function randomStrategy(shardCount: number): ShardStrategy {
  const everyShard = allShards(shardCount);
  return {
    kind: 'random',
    shardCount,
    shardForWrite: (_normalized, random) => Math.floor(random() * shardCount),
    shardsForValue: () => [...everyShard],
    groupsForRange: () => [[...everyShard]],
  };
}
