import * as crypto from 'node:crypto';
import { z } from 'zod';
import { registerStrategy, shardCountSchema } from './registry';
import { allShards, type ShardStrategy } from './strategy';

/**
 * The seed's `int.from_bytes(sha256(utf8(normalized)).digest(), 'big') % shardCount`: one value lives on one
 * shard, but a sorted listing merges all of them.
 */
export function hashStrategy(shardCount: number): ShardStrategy {
  return {
    kind: 'hash',
    config: Object.freeze({ kind: 'hash', shards: shardCount }),
    shardCount,
    shardForWrite: (normalized) => hashShard(normalized, shardCount),
    shardsForValue: (normalized) => [hashShard(normalized, shardCount)],
    groupsForRange: () => [allShards(shardCount)],
  };
}

registerStrategy({
  name: 'hash',
  description: 'sha256 of the normalized value mod shards: one shard per value; listings merge all shards',
  configSchema: z.object({ kind: z.literal('hash'), shards: shardCountSchema }),
  create: (config) => hashStrategy(config.shards),
});

/** The digest read as one big-endian integer, reduced mod `shardCount` byte by byte. */
export function hashShard(normalized: string, shardCount: number): number {
  const digest = sha256(normalized);
  let remainder = 0;
  // (r * 256 + byte) stays below 2^53 for any shard count under 2^44.
  for (let i = 0; i < digest.length; i++) remainder = (remainder * 256 + digest[i]!) % shardCount;
  return remainder;
}

/** The one-shot `crypto.hash` is faster (docs/performance.md); runtimes lacking it get createHash. */
const sha256: (value: string) => Uint8Array =
  typeof crypto.hash === 'function'
    ? (value) => crypto.hash('sha256', value, 'buffer')
    : (value) => crypto.createHash('sha256').update(value, 'utf8').digest();
