import { compareKeys } from '../../src/core/collation';
import { KWayMerge } from '../../src/core/merge';
import type { MicroCase } from './micro-cases';

type IndexRecord = { gsi1sk: string };

const SHARDS = 21;
/** About a first wave's per-shard limit on a 21-shard page of 100 (see listing/read-limits). */
const SHARD_PAGE = 8;
const PAGE = 100;
const keyOf = (record: IndexRecord) => record.gsi1sk;

/**
 * The k-way merge micro-benchmarks, over index keys dealt to 21 shards. Each shard goes
 * through JSON as a Query response does: flat strings, records laid out in shard order.
 *
 * `hot` keys (a few thousand, which fit in a core's cache) measure the merge as a listing
 * runs it, over the ~150 records it has just parsed. The `cold` case walks tens of
 * thousands of records — megabytes, out of cache — and shows what memory costs; it has
 * no target, because no listing merges that way.
 */
export function mergeCases(hot: readonly string[], cold: readonly string[], label = ''): MicroCase[] {
  const hotShards = shardsOf(hot);
  const coldShards = shardsOf(cold);
  return [
    {
      name: `k-way merge, pages of ${PAGE} from 21 shards (${count(hot)} keys${label})`,
      unit: 'items/s',
      batch: hot.length,
      target: 5_000_000,
      run: () => mergePages(hotShards, hot.length),
    },
    {
      name: `k-way merge, 21 whole shards (${count(hot)} keys${label})`,
      unit: 'items/s',
      batch: hot.length,
      target: 5_000_000,
      run: () => mergeWhole(hotShards, hot.length),
    },
    {
      name: `k-way merge, 21 whole shards (${count(cold)} keys, out of cache)`,
      unit: 'items/s',
      batch: cold.length,
      run: () => mergeWhole(coldShards, cold.length),
    },
  ];
}

function shardsOf(keys: readonly string[]): IndexRecord[][] {
  const dealt: IndexRecord[][] = Array.from({ length: SHARDS }, () => []);
  keys.forEach((key, i) => {
    dealt[i % SHARDS]!.push({ gsi1sk: key });
  });
  return dealt.map(
    (shard) => JSON.parse(JSON.stringify(shard.sort((a, b) => compareKeys(a.gsi1sk, b.gsi1sk)))) as IndexRecord[],
  );
}

function mergeWhole(shards: readonly IndexRecord[][], total: number): number {
  const merge = new KWayMerge<IndexRecord>(SHARDS, keyOf, 'asc');
  shards.forEach((shard, s) => {
    merge.supply(s, shard.slice(), true);
  });
  const out: IndexRecord[] = [];
  merge.emitInto(out, Infinity);
  if (out.length !== total) throw new Error('merge lost items');
  return out.length;
}

/**
 * As a listing uses it: one merge per page of 100, each shard supplying pages of 8 and
 * more when it runs dry; the next page starts right after the last item emitted.
 */
function mergePages(shards: readonly IndexRecord[][], total: number): number {
  const next = shards.map(() => 0);
  const supply = (merge: KWayMerge<IndexRecord>, s: number) => {
    const page = shards[s]!.slice(next[s]!, next[s]! + SHARD_PAGE);
    next[s]! += page.length;
    merge.supply(s, page, next[s]! >= shards[s]!.length);
  };
  let emitted = 0;
  while (emitted < total) {
    const merge = new KWayMerge<IndexRecord>(SHARDS, keyOf, 'asc');
    const page: IndexRecord[] = [];
    for (let stop = merge.emitInto(page, PAGE); stop.kind === 'need'; stop = merge.emitInto(page, PAGE)) {
      for (const s of stop.sources) supply(merge, s);
    }
    emitted += page.length;
    // Left-over items are read again by the next page, as its queries start after the last emitted key.
    for (let s = 0; s < SHARDS; s++) next[s]! -= merge.buffered(s);
  }
  if (emitted !== total) throw new Error('merge lost items');
  return emitted;
}

const count = (keys: readonly string[]) => keys.length.toLocaleString('en-US');
