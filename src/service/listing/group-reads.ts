import { compareKeys } from '../../core/collation';
import type { JsonObject } from '../../core/item';
import { KWayMerge } from '../../core/merge';
import type { OrderDirection } from '../../core/order-encoding';
import { MAX_AHEAD, type ReadHint } from '../../core/read-hint';
import { type ShardProgress, shardsInReadOrder } from './read-limits';

interface ShardState {
  /** Index sort key the shard's next page starts after (in read order). */
  resumeAfter: string | undefined;
  /** Index keys read from this shard in this page, for sizing the next wave (merged groups only). */
  readonly keys: string[];
  /** The limit of this shard's latest refill (a query after its first) in this page. */
  lastRefill: number | undefined;
}

/**
 * What one shard group has read in one page, the state waves are sized from: the merge of its
 * shards and, per shard (`source`: its position in the group), where it resumes and what it gave.
 */
export class GroupReads {
  readonly merge: KWayMerge<JsonObject>;
  /** Whether `a` comes before `b` in read order. */
  readonly before: (a: string, b: string) => boolean;
  private readonly shards: ShardState[];

  constructor(
    size: number,
    private readonly key: string,
    direction: OrderDirection,
  ) {
    this.merge = new KWayMerge<JsonObject>(size, (record) => record[key] as string, direction);
    this.shards = Array.from({ length: size }, () => ({ resumeAfter: undefined, keys: [], lastRefill: undefined }));
    const sign = direction === 'asc' ? 1 : -1;
    this.before = (a, b) => sign * compareKeys(a, b) < 0;
  }

  /** Where the next query of `source` starts after; undefined before its first. */
  resumeAfter(source: number): string | undefined {
    return this.shards[source]!.resumeAfter;
  }

  /** Notes a query of `source` about to go out with `limit`: after its first, that is a refill. */
  querying(source: number, limit: number): void {
    const state = this.shards[source]!;
    if (state.resumeAfter !== undefined) state.lastRefill = limit;
  }

  /**
   * Takes `source`'s next page into the merge (`resumeAfter` undefined: read to its end); `keepKeys`: its keys
   * stay for sizing the next wave (merged groups only).
   */
  take(source: number, items: JsonObject[], resumeAfter: string | undefined, keepKeys: boolean): void {
    const state = this.shards[source]!;
    state.resumeAfter = resumeAfter;
    if (keepKeys) for (const item of items) state.keys.push(item[this.key] as string);
    this.merge.supply(source, items, resumeAfter === undefined);
  }

  /** Every shard's progress as wave sizing sees it; `waiting`: the shards the merge needs. */
  progress(waiting: readonly number[]): ShardProgress[] {
    const needed = new Set(waiting);
    return this.shards.map((state, source) => ({
      keys: state.keys,
      hasMore: this.merge.hasMore(source),
      waiting: needed.has(source),
      ...(state.lastRefill !== undefined && { lastRefill: state.lastRefill }),
    }));
  }

  /** The hint for the next page: the shards of the keys read past `end`, in read order. */
  readPastEnd(end: string): ReadHint {
    const past = this.shards.map(({ keys }) => ({ keys: keys.filter((key) => this.before(end, key)) }));
    return {
      more: this.shards.map((_, source) => this.merge.hasMore(source)),
      ahead: shardsInReadOrder(past, this.before).slice(0, MAX_AHEAD),
    };
  }
}
