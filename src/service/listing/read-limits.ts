import { valueOfIndexKey } from '../../core/index-key';
import type { ReadHint } from '../../core/read-hint';

/** DynamoDB Query pages stop at 1 MB anyway; asking for more items than a page can use is waste. */
export const MAX_QUERY_LIMIT = 1001;

/** What the listing knows of one shard of a merged group, in this page. */
export interface ShardProgress {
  /** Index sort keys read from this shard in this page so far, in read order. */
  readonly keys: readonly string[];
  /** The shard may hold more than was read (it can be queried again). */
  readonly hasMore: boolean;
  /** The merge cannot go on before this shard is read again. */
  readonly waiting: boolean;
  /** The limit of this shard's latest refill in this page (not of its first read), if any. */
  readonly lastRefill?: number;
}

export interface ShardRead {
  readonly source: number;
  readonly limit: number;
}

/**
 * The queries of one wave of a merged group: every shard the merge waits for, plus every
 * other shard that will probably run dry before the page is full — topping those up in the
 * same parallel wave saves the sequential round trip each would cost a moment later.
 * `target`: the items the group must deliver in this page; `before(a, b)`: the read order.
 *
 * Where the page will end is estimated. A group's shards hold the same distribution of keys
 * (hash, random and heavy-hitter runs spread items uniformly), so past where a shard's reads
 * stop it is expected to hold as many keys as the shards read further do on average. Walking
 * the keys read so far in order, with that extrapolation, gives the key where the group
 * reaches `target`; each shard with more is asked for its shortfall up to there plus a
 * margin. A wrong guess costs another wave, never a wrong page: the merge decides that.
 */
export function refillWave(
  shards: readonly ShardProgress[],
  target: number,
  before: (a: string, b: string) => boolean,
): ShardRead[] {
  const counted = shards.map((shard) => ({ ...shard, read: shard.keys.length }));
  return sizeWave(counted, shardsInReadOrder(shards, before), target, REFILL_MARGINS, (source, limit) => {
    const shard = shards[source]!;
    // Dry inside a run of one value that no other shard holds (a popular title hashed
    // onto this shard): the run may fill the rest of the page on its own, so ask for
    // all the page still needs in one read rather than doubling wave after wave.
    if (!shard.waiting || !runOfItsOwn(shards, source)) return limit;
    return Math.max(limit, stillNeeded(shards, shard.keys[shard.keys.length - 1]!, target, before));
  });
}

/** A first wave: each shard that may hold more asks for its share of `target` plus a margin (a page each reads N×). */
export function evenWave(hasMore: readonly boolean[], target: number): ShardRead[] {
  const live = hasMore.filter(Boolean).length;
  const limit = withMargin(target / Math.max(1, live), FIRST_MARGIN);
  return hasMore.flatMap((more, source) => (more ? [{ source, limit: cap(limit, target) }] : []));
}

/**
 * The first wave of a merged group from the last page's hint: each shard re-reads the items
 * it held past the cursor, plus what `refillWave` expects it to run short of beyond them (the
 * hint's read order stands in for the keys: sizing needs only their order). A shard with
 * nothing there is still read once: it may have gained items since.
 */
export function hintedWave(hint: ReadHint, target: number): ShardRead[] {
  // The page ends by the target-th of them at the latest: items further on are not re-read.
  const keyShards = hint.ahead.slice(0, target);
  const ahead = hint.more.map(() => 0);
  for (const shard of keyShards) ahead[shard]!++;
  const shards: WaveShard[] = hint.more.map((more, source) => ({
    read: ahead[source]!,
    hasMore: more,
    waiting: more && ahead[source] === 0,
  }));
  const beyond = new Map(sizeWave(shards, keyShards, target, HINTED_MARGINS).map((read) => [read.source, read.limit]));
  return hint.more.map((_, source) => ({
    source,
    limit: Math.min(MAX_QUERY_LIMIT, Math.max(1, ahead[source]! + (beyond.get(source) ?? 0))),
  }));
}

/** What wave sizing needs of a shard: how many items it gave in this page (`read`), not which keys. */
type WaveShard = Omit<ShardProgress, 'keys'> & { readonly read: number };

/**
 * The wave `refillWave` describes, from counts and `keyShards` — the shard of every item
 * read so far, in read order. `grow` may raise a waiting shard's limit (see refillWave).
 */
function sizeWave(
  shards: readonly WaveShard[],
  keyShards: readonly number[],
  target: number,
  margins: RefillMargins,
  grow: (source: number, limit: number) => number = (_, limit) => limit,
): ShardRead[] {
  const hasMore = shards.map((shard) => shard.hasMore);
  if (keyShards.length === 0) return evenWave(hasMore, target);
  const shortfall = expectedShortfall(shards, keyShards, target + Math.ceil(margins.end * Math.sqrt(target)));
  const reads: ShardRead[] = [];
  shards.forEach((shard, source) => {
    if (!shard.hasMore) return;
    const missing = shortfall[source]!;
    if (!shard.waiting && missing <= 0) return;
    let limit = withMargin(Math.max(missing, 1), margins.refill);
    // Dry again after a refill: this shard holds more than its share here (a popular
    // value hashed onto it, say); growing geometrically bounds the waves it costs.
    if (shard.waiting && shard.lastRefill !== undefined) limit = Math.max(limit, shard.lastRefill * 2);
    reads.push({ source, limit: cap(grow(source, limit), target) });
  });
  return reads;
}

/** The shard of every key given, in read order (ties, which unique keys never are, by shard). */
export function shardsInReadOrder(
  shards: readonly { readonly keys: readonly string[] }[],
  before: (a: string, b: string) => boolean,
): number[] {
  const all = shards.flatMap(({ keys }, shard) => keys.map((key) => ({ key, shard })));
  all.sort((a, b) => (before(a.key, b.key) ? -1 : before(b.key, a.key) ? 1 : 0));
  return all.map(({ shard }) => shard);
}

/**
 * Per shard: how many more keys it is expected to hold before the group reaches
 * `target`. Walks every key read in order (`keyShards`: their shards), tracking D, the
 * expected keys per shard so far: each key of a shard whose reads still reach further
 * adds 1 / (number of such shards). A shard whose reads stop at D = d is expected to
 * hold D − d more keys by the time the walk is at D (not "the average count": the
 * shards that run out first are the dense ones, which would make that estimate too low).
 */
function expectedShortfall(shards: readonly WaveShard[], keyShards: readonly number[], target: number): number[] {
  const n = shards.length;
  // passedAt[s]: D when shard s's reads stopped (it has more, all of it read so far is behind).
  const passedAt = new Array<number | undefined>(n).fill(undefined);
  const walked = new Array<number>(n).fill(0);
  let covering = 0;
  shards.forEach((shard, s) => {
    if (!shard.hasMore) return;
    if (shard.read === 0) passedAt[s] = 0;
    else covering++;
  });
  let density = 0;
  let total = 0;
  const estimate = (): number => {
    let sum = total;
    for (const at of passedAt) if (at !== undefined) sum += density - at;
    return sum;
  };
  for (const shard of keyShards) {
    total++;
    const progress = shards[shard]!;
    if (progress.hasMore && passedAt[shard] === undefined) density += 1 / covering;
    if (estimate() >= target) break;
    // The shard's last key read: past it, the shard is extrapolated.
    if (++walked[shard]! === progress.read && progress.hasMore) {
      passedAt[shard] = density;
      covering--;
    }
  }
  const short = target - estimate();
  const passed = passedAt.filter((at) => at !== undefined).length;
  // Every key read is behind and the page is still short: the passed shards share the rest.
  const extra = short > 0 && passed > 0 ? short / passed : 0;
  return passedAt.map((at) => (at === undefined ? 0 : density - at + extra));
}

/**
 * Whether a shard's reads end in RUN_LENGTH or more index keys of one value no other shard's
 * reads hold. (A value spread over the shards, by random suffixes or as a range heavy hitter,
 * meets every shard alike: the usual estimate holds.)
 */
function runOfItsOwn(shards: readonly ShardProgress[], source: number): boolean {
  const keys = shards[source]!.keys;
  if (keys.length < RUN_LENGTH) return false;
  const value = valueOfIndexKey(keys[keys.length - 1]!);
  if (!keys.slice(-RUN_LENGTH).every((key) => valueOfIndexKey(key) === value)) return false;
  return shards.every((shard, other) => other === source || !shard.keys.some((key) => valueOfIndexKey(key) === value));
}

/** What the group still needs past `key`: every key read up to it has been or will be emitted first. */
function stillNeeded(
  shards: readonly ShardProgress[],
  key: string,
  target: number,
  before: (a: string, b: string) => boolean,
): number {
  let emitted = 0;
  for (const shard of shards) for (const read of shard.keys) if (!before(key, read)) emitted++;
  return target - emitted;
}

/** A shard's expected count plus a margin of about one binomial standard deviation. */
function withMargin(expected: number, deviations: number): number {
  return Math.ceil(expected + deviations * Math.sqrt(expected));
}

/*
 * Margins, in standard deviations, tuned with scripts/bench/sim-listing.ts (docs/performance.md) for
 * one round trip: a page waits for its slowest shard, so a second wave costs a whole round trip while
 * a few more items per shard cost almost nothing. Refills are rare and short: smaller margins.
 */
const FIRST_MARGIN = 1.5;
interface RefillMargins {
  /** How late to place the page's end, in σ of the page. */
  readonly end: number;
  /** What to add to each shard's expected shortfall, in σ of it. */
  readonly refill: number;
}
const REFILL_MARGINS: RefillMargins = { end: 0.5, refill: 1 };
/** For a first wave sized from the last page's hint (see ReadHint): as wide as the first read's. */
const HINTED_MARGINS: RefillMargins = { end: 1.5, refill: 1.5 };
/** Index keys of one value at the end of a dry shard's reads that make it a popular value's run. */
const RUN_LENGTH = 4;

function cap(limit: number, remaining: number): number {
  return Math.max(1, Math.min(limit, remaining, MAX_QUERY_LIMIT));
}
