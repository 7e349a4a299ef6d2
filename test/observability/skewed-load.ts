import { createHash } from 'node:crypto';

export const HOT_TITLE = 'Greatest Hits';
export const SHARDS = 21;

export interface LoadItem {
  readonly pk: string;
  readonly sk: string;
  readonly title: string;
}

/**
 * `count` items where every tenth item's first three are the hot title (30 %) and every
 * other one has a title of its own. Items start at `from`, so loads can follow each other.
 */
export function skewedItems(from: number, count: number): LoadItem[] {
  return Array.from({ length: count }, (_, n) => {
    const i = from + n;
    const title = i % 10 < 3 ? HOT_TITLE : `Album ${i.toString(36)} Vol ${i % 7}`;
    return { pk: `artist-${i}`, sk: `album#${i}`, title };
  });
}

/**
 * The shard the seed's hash strategy puts a title on, computed here from its definition
 * (`int.from_bytes(sha256(nfkd(lower(title))), 'big') % shards`), not by shardline's code.
 */
export function expectedShard(title: string, shards = SHARDS): number {
  const digest = createHash('sha256').update(title.toLowerCase().normalize('NFKD'), 'utf8').digest('hex');
  return Number(BigInt(`0x${digest}`) % BigInt(shards));
}

/** Writes per shard that `items` make. */
export function writesPerShard(items: readonly LoadItem[], shards = SHARDS): number[] {
  const counts = new Array<number>(shards).fill(0);
  for (const item of items) counts[expectedShard(item.title, shards)]!++;
  return counts;
}
