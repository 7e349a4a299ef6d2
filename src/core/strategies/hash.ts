import { createHash } from 'node:crypto';
import { allShards, type ShardStrategy } from './strategy';

/**
 * `int.from_bytes(sha256(utf8(normalized)).digest(), 'big') % shardCount` — the
 * seed's hash shard id. One value lives on one shard; a sorted listing still has to
 * merge all of them, because hashing destroys order between shards.
 */
export function hashStrategy(shardCount: number): ShardStrategy {
  const everyShard = allShards(shardCount);
  return {
    kind: 'hash',
    shardCount,
    shardForWrite: (normalized) => hashShard(normalized, shardCount),
    shardsForValue: (normalized) => [hashShard(normalized, shardCount)],
    groupsForRange: () => [[...everyShard]],
  };
}

/** The digest read as one big-endian integer, reduced mod `shardCount` byte by byte. */
export function hashShard(normalized: string, shardCount: number): number {
  const digest = createHash('sha256').update(normalized, 'utf8').digest();
  let remainder = 0;
  // (r * 256 + byte) stays below 2^53 for any shard count under 2^44.
  for (let i = 0; i < digest.length; i++) remainder = (remainder * 256 + digest[i]!) % shardCount;
  return remainder;
}
