import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../../src/core/collation';
import { KWayMerge } from '../../../src/core/merge';
import type { OrderDirection } from '../../../src/core/order-encoding';
import { seededRandom } from '../../../devtools/random';

/** Fake shards: sorted arrays served in pages of a fixed size; counts what was asked. */
function drain(shards: string[][], pageSize: number, direction: OrderDirection, take = Infinity) {
  const merge = new KWayMerge<string>(shards.length, (key) => key, direction);
  const served = shards.map(() => 0);
  const out: string[] = [];
  const asks: number[] = [];
  for (;;) {
    const stop = merge.emitInto(out, take);
    if (stop.kind !== 'need') break;
    for (const source of stop.sources) {
      // The merge never asks for a source that still has buffered items.
      expect(merge.buffered(source)).toBe(0);
      asks.push(source);
      const page = shards[source]!.slice(served[source], served[source]! + pageSize);
      served[source]! += page.length;
      merge.supply(source, page, served[source]! >= shards[source]!.length);
    }
  }
  return { out, asks, served };
}

const sortShard = (keys: string[], direction: OrderDirection) =>
  keys.sort((a, b) => (direction === 'asc' ? compareKeys(a, b) : compareKeys(b, a)));

describe('KWayMerge', () => {
  it.each(['asc', 'desc'] as const)('merges sorted shards into one sorted stream (%s)', (direction) => {
    const random = seededRandom(11);
    for (let trial = 0; trial < 200; trial++) {
      const all = Array.from(
        { length: Math.floor(random() * 300) },
        (_, i) =>
          String.fromCodePoint(0x61 + Math.floor(random() * 5), [0xe000, 0x1f600, 0x62][Math.floor(random() * 3)]!) + i,
      );
      const shardCount = 1 + Math.floor(random() * 8);
      const shards: string[][] = Array.from({ length: shardCount }, () => []);
      for (const key of all) shards[Math.floor(random() * shardCount)]!.push(key);
      for (const shard of shards) sortShard(shard, direction);
      const { out } = drain(shards, 1 + Math.floor(random() * 10), direction);
      expect(out).toEqual(sortShard([...all], direction));
    }
  });

  it('handles empty shards and a single shard', () => {
    expect(drain([[], ['a', 'b'], []], 1, 'asc').out).toEqual(['a', 'b']);
    expect(drain([[]], 5, 'asc').out).toEqual([]);
    expect(drain([], 5, 'asc').out).toEqual([]);
  });

  it('reads only what the output needs: a shard whose items come later is asked once', () => {
    const early = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
    const late = ['z1', 'z2', 'z3', 'z4', 'z5', 'z6'];
    const { out, served } = drain([early, late], 2, 'asc', 4);
    expect(out).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(served).toEqual([4, 2]);
  });

  it('asks again for a shard that answered an empty page but has more', () => {
    const merge = new KWayMerge<string>(1, (key) => key, 'asc');
    const out: string[] = [];
    merge.supply(0, [], false);
    expect(merge.emitInto(out, 10)).toEqual({ kind: 'need', sources: [0] });
    merge.supply(0, ['a'], true);
    expect(merge.emitInto(out, 10)).toEqual({ kind: 'done' });
    expect(out).toEqual(['a']);
  });
});
