import { SpaceSaving } from '../../core/space-saving';

const COUNTS = ['writes', 'itemsRead', 'queries', 'throttles'] as const;

/** One shard's figures, as /stats reports them (in this key order). */
export type ShardFigures = { readonly shard: number } & { readonly [K in (typeof COUNTS)[number]]: number };

/**
 * Per-shard counters of one collection over a span of time, and its most written values (a
 * Space-Saving sketch: memory bounded by k whatever the distinct values). Shard arrays grow
 * to the largest shard seen, so a reshard to more shards needs nothing special.
 */
export class ShardCounters {
  readonly writes: number[] = [];
  readonly itemsRead: number[] = [];
  readonly queries: number[] = [];
  readonly throttles: number[] = [];
  readonly hot: SpaceSaving;

  constructor(hotKeys: number) {
    this.hot = new SpaceSaving(hotKeys);
  }

  written(shard: number, value: string): void {
    bump(this.writes, shard, 1);
    this.hot.add(value);
  }

  queried(shard: number, itemsRead: number): void {
    bump(this.queries, shard, 1);
    bump(this.itemsRead, shard, itemsRead);
  }

  throttled(shard: number): void {
    bump(this.throttles, shard, 1);
  }

  /** Adds `other`'s counts (and merges its sketch) into these. */
  add(other: ShardCounters): void {
    for (const name of COUNTS) for (const [shard, n] of other[name].entries()) bump(this[name], shard, n);
    this.hot.merge(other.hot);
  }

  clear(): void {
    for (const name of COUNTS) this[name].length = 0;
    this.hot.clear();
  }

  /** Figures for shards 0 … shardCount − 1 (and any higher shard that saw traffic). */
  figures(shardCount: number): ShardFigures[] {
    const length = Math.max(shardCount, ...COUNTS.map((name) => this[name].length));
    return Array.from(
      { length },
      (_, shard) =>
        ({ shard, ...Object.fromEntries(COUNTS.map((name) => [name, this[name][shard] ?? 0])) }) as ShardFigures,
    );
  }
}

function bump(counts: number[], shard: number, by: number): void {
  while (counts.length <= shard) counts.push(0);
  counts[shard]! += by;
}
