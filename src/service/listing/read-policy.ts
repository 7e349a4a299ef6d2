import type { ReadHint } from '../../core/read-hint';
import { evenWave, hintedWave, MAX_QUERY_LIMIT, refillWave, type ShardProgress, type ShardRead } from './read-limits';

/** A query of a one-shard group sent ahead of need: the group's index in the plan and its limit. */
export interface PrefetchRead {
  readonly group: number;
  readonly limit: number;
}

/**
 * How much a listing asks each shard for. A policy only sizes queries: every shard a group
 * needs is still read to the page's end and the merge decides what is returned, so a poor
 * guess costs reads or round trips, never items. Limits are 1 to MAX_QUERY_LIMIT.
 */
export interface ReadPolicy {
  /** The limit of a one-shard group's next query, when the page still needs `remaining` (> 0) items. */
  singleRead(remaining: number): number;

  /**
   * The first wave of a merged group of `shards` shards: every shard, as the merge needs a
   * head from each. `target`: what the group must deliver to fill the page; `hint`: what the
   * last page read past its end in this group (its `more` has one entry per shard).
   */
  firstWave(shards: number, target: number, hint: ReadHint | undefined): ShardRead[];

  /** A later wave of a merged group: every shard the merge waits for (`waiting`), and any it chooses to top up. */
  nextWave(progress: readonly ShardProgress[], target: number, before: (a: string, b: string) => boolean): ShardRead[];

  /**
   * Range listings read one-shard groups one after another. `held(group)`: the items one-shard
   * group `group` holds for the page when another one-shard group follows it, else undefined.
   * Returns the groups whose first query goes out with the first group's, in plan order, each
   * limited to what the page will still need there.
   */
  prefetch(want: number, held: (group: number) => number | undefined): PrefetchRead[];

  /**
   * Range listings again: a one-shard group is about to be read and the page still needs `need`
   * items. Returns how many one-shard groups, from it on, go out in this one wave (1: it alone).
   * `last`: the width of the wave before (1 for the page's first group); `ended`: the shards
   * this page has read to their end so far (see ShardsEnded).
   */
  readAhead(last: number, need: number, ended: ShardsEnded): number;
}

/** The shards a page read from their start (or found empty past its cursor) to their end, and the items they gave. */
export interface ShardsEnded {
  readonly shards: number;
  /** Those of them that gave any items. */
  readonly holding: number;
  readonly items: number;
}

/** How much wider each read-ahead wave may be than the one before (1, 4, 16 shards: 21 in three round trips). */
const READ_AHEAD_GROWTH = 4;
/** Queries of one read-ahead wave at most (a hash page sends 21 at once). */
const MAX_READ_AHEAD = 64;

/**
 * The policy tuned with scripts/bench/sim-listing.ts (see read-limits): a one-shard group reads
 * what the page still needs in one query; merged groups read in waves (the first from the last
 * page's hint, else an even share); range shards are prefetched while the shard
 * tails say the page will run past them, and read ahead once shards run out short of the page.
 */
export const ADAPTIVE_READS: ReadPolicy = {
  singleRead: (remaining) => Math.min(remaining, MAX_QUERY_LIMIT),
  firstWave: (shards, target, hint) =>
    hint ? hintedWave(hint, target) : evenWave(new Array<boolean>(shards).fill(true), target),
  nextWave: refillWave,
  prefetch(want, held) {
    const reads: PrefetchRead[] = [];
    let before = 0;
    for (let group = 0; ; group++) {
      const left = held(group);
      if (left === undefined) return reads;
      before += left;
      if (before >= want) return reads;
      reads.push({ group: group + 1, limit: want - before });
    }
  },
  readAhead(last, need, ended) {
    // Only the cursor's shard has ended, with items: a dense shard's tail, and the next shard
    // most likely fills the page alone (reading more at each crossing would cost a page's reads).
    if (ended.shards === 0) return 1;
    // As many shards as, at the rate seen so far, hold the items the page needs, with a margin that
    // narrows as more shards with items are seen; widening geometrically at most, so a guess from a
    // few empty shards costs at most a few times the reads it needs.
    const { shards, holding, items } = ended;
    const margin = 1 + 1 / holding;
    const enough =
      items === 0
        ? Number.POSITIVE_INFINITY
        : Math.ceil(((Math.ceil((need * holding) / items) * shards) / holding) * margin);
    return Math.min(enough, last * READ_AHEAD_GROWTH, MAX_READ_AHEAD);
  },
};
