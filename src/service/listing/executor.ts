import { setMaxListeners } from 'node:events';
import type { RoutedCollection } from '../../core/collection';
import type { JsonObject } from '../../core/item';
import { type ListRequest, planListing, type ReadPlan } from '../../core/plan';
import type { ReadHint } from '../../core/read-hint';
import type { ShardPage } from '../../store/store';
import type { ShardRead } from './read-limits';
import type { ShardTails } from './shard-tails';
import { type RequestContext, shardObserver } from '../metrics/request-tally';
import { GroupReads } from './group-reads';
import type { Listing, ListingStats, ShardSource } from './listing';
import { ReadAhead } from './read-ahead';
import { ADAPTIVE_READS, type ReadPolicy } from './read-policy';
import { nearBound, shardQuery } from './shard-reads';

/** What a listing executor reads with; all of it is the caller's, none is looked up. */
export interface ListingInputs {
  readonly store: ShardSource;
  /** The collection as this request sees it (its table, index, attributes and strategy). */
  readonly collection: RoutedCollection;
  /** Where listings of these shards found each shard's end (one per collection and map; see ShardTails). */
  readonly tails: ShardTails;
  readonly context: RequestContext;
  /** How much each query asks for; ADAPTIVE_READS unless given. */
  readonly policy?: ReadPolicy;
}

/** Reads one page of a sorted listing (see ListingExecutor): complete and in order, or an error. */
export function listPage(inputs: ListingInputs, request: ListRequest, limit: number): Promise<Listing> {
  return new ListingExecutor(inputs, request, limit).run();
}

/**
 * Reads one page of a sorted listing (built per request, used once): plans the shard groups, then for
 * each in order runs a lazy k-way merge fed by parallel waves of shard queries. One item beyond the page
 * is read so that the last page is known to be the last. If any shard query fails, the others are
 * aborted and the error propagates: a page is complete or not returned.
 */
class ListingExecutor {
  readonly stats: ListingStats = {
    shardQueries: 0,
    itemsRead: 0,
    consumedCapacity: undefined,
    roundTrips: 0,
    hedges: 0,
    dynamoMs: 0,
  };
  private readonly plan: ReadPlan;
  private readonly policy: ReadPolicy;
  private readonly records: JsonObject[] = [];
  /** The page's items plus the one that tells whether more follow. */
  private readonly want: number;
  /** Aborts this page's queries still in flight once one has failed. */
  private readonly controller = new AbortController();

  constructor(
    private readonly inputs: ListingInputs,
    private readonly request: ListRequest,
    private readonly limit: number,
  ) {
    this.plan = planListing(inputs.collection.map.strategy, request);
    this.policy = inputs.policy ?? ADAPTIVE_READS;
    this.want = limit + 1;
    // Every shard query listens on this one signal (AbortSignal.any per query costs: docs/performance.md).
    setMaxListeners(0, this.controller.signal);
  }

  async run(): Promise<Listing> {
    const caller = this.inputs.context.signal;
    const abort = () => this.controller.abort();
    if (caller?.aborted) abort();
    caller?.addEventListener('abort', abort, { once: true });
    try {
      return await this.read();
    } catch (error) {
      abort();
      throw error;
    } finally {
      caller?.removeEventListener('abort', abort);
    }
  }

  private async read(): Promise<Listing> {
    const { plan, request, records, want, limit } = this;
    const ahead = this.readAhead();
    // A hint describes the one group of a hash or random listing, as it was.
    const hint =
      plan.groups.length === 1 && request.hint?.more.length === plan.groups[0]!.length ? request.hint : undefined;
    let drained = -1;
    let nextHint: ReadHint | undefined;
    for (const [index, group] of plan.groups.entries()) {
      if (records.length >= want) break;
      if (ahead.before(index, want - records.length)) this.stats.roundTrips++;
      drained = index;
      const before = records.length;
      nextHint = await this.drain(index, group, ahead.page(index), index === 0 ? hint : undefined);
      if (group.length === 1 && records.length < want)
        ahead.shardEnded(records.length - before, index > 0 || request.after === undefined);
    }
    // Shards read ahead that the page did not reach (the shards before held enough): read all the same.
    for (const [index, pending] of ahead.unreached(drained)) {
      const read = await pending;
      const shard = plan.groups[index]![0]!;
      this.count(read, shard);
      // Read from its shard's start: to its end, it is what a later page crossing into it needs to know.
      if (read.resumeAfter === undefined) this.inputs.tails.record(plan, shard, read.items, this.key(), undefined);
    }
    const more = records.length > limit;
    const page = more ? records.slice(0, limit) : records;
    const last = page[page.length - 1];
    const nextPosition = more && last ? (last[this.key()] as string) : undefined;
    return {
      records: page,
      nextPosition,
      ...(nextPosition !== undefined && plan.groups.length === 1 && nextHint && { nextHint }),
      stats: this.stats,
    };
  }

  /**
   * Range listings read one shard after another: where the shard tails say the page
   * will run past a shard's end, the next one's first query goes out now, not a round trip later;
   * past shards that ran out short, the next few go out at once (ReadAhead).
   */
  private readAhead(): ReadAhead {
    const { plan, inputs } = this;
    const ahead = new ReadAhead(plan, this.policy, (group, limit) =>
      this.query(plan.groups[group]![0]!, undefined, limit),
    );
    const held = (index: number): number | undefined => {
      const group = plan.groups[index];
      if (group?.length !== 1 || plan.groups[index + 1]?.length !== 1) return undefined;
      // The first group starts at the cursor (or the range's start); later ones at their shard's start.
      return inputs.tails.remainingAfter(plan, group[0]!, index === 0 ? this.request.after : undefined);
    };
    for (const { group, limit } of this.policy.prefetch(this.want, held)) ahead.prefetch(group, limit);
    return ahead;
  }

  /**
   * Merges one shard group into the page, a wave of queries at a time, until it has `want` items
   * or the group is done. `prefetched`: a one-shard group's first page, already in flight; `hint`
   * sizes a merged group's first wave. Returns what a merged group read past a full page's end.
   */
  private async drain(
    index: number,
    group: readonly number[],
    prefetched: Promise<ShardPage> | undefined,
    hint: ReadHint | undefined,
  ): Promise<ReadHint | undefined> {
    const { records, want, policy } = this;
    const key = this.key();
    const reads = new GroupReads(group.length, key, this.plan.direction);
    const target = want - records.length;
    const single = group.length === 1;
    for (let wave = 0; ; wave++) {
      const stop = reads.merge.emitInto(records, want);
      if (stop.kind !== 'need') {
        return single || records.length < want ? undefined : reads.readPastEnd(records[want - 2]![key] as string);
      }
      const queries: ShardRead[] = single
        ? [{ source: 0, limit: policy.singleRead(want - records.length) }]
        : wave === 0
          ? policy.firstWave(group.length, target, hint)
          : policy.nextWave(reads.progress(stop.sources), target, reads.before);
      await this.readWave(index, group, reads, queries, wave === 0 ? prefetched : undefined);
    }
  }

  /**
   * Sends one wave of a group's queries in parallel (`prefetched` stands in for its one query)
   * into the merge. A one-shard group's read that reaches its shard's end is kept as that shard's tail.
   */
  private async readWave(
    index: number,
    group: readonly number[],
    reads: GroupReads,
    queries: readonly ShardRead[],
    prefetched: Promise<ShardPage> | undefined,
  ): Promise<void> {
    const key = this.key();
    // A prefetched page went out with an earlier wave: waiting for it is no new round trip.
    if (!(prefetched && queries.length === 1)) this.stats.roundTrips++;
    const started = performance.now();
    const starts = queries.map(({ source }) => reads.resumeAfter(source));
    const pages = await Promise.all(
      queries.map(({ source, limit }, i) => {
        if (i === 0 && prefetched) return prefetched;
        reads.querying(source, limit);
        return this.query(group[source]!, starts[i], limit);
      }),
    );
    this.stats.dynamoMs += performance.now() - started;
    queries.forEach(({ source }, i) => {
      const page = pages[i]!;
      this.count(page, group[source]!);
      if (group.length === 1 && page.resumeAfter === undefined) {
        // A later group's first read starts at its shard's start: the page's bound lies before it.
        const whole = index > 0 && starts[i] === undefined;
        const after = whole ? undefined : nearBound(this.plan, starts[i]);
        this.inputs.tails.record(this.plan, group[source]!, page.items, key, after);
      }
      reads.take(source, page.items, page.resumeAfter, group.length > 1);
    });
  }

  private query(shard: number, resumeAfter: string | undefined, limit: number): Promise<ShardPage> {
    const { collection, context, store } = this.inputs;
    const query = shardQuery(collection, this.plan, shard, resumeAfter, limit, this.request.attributes);
    return store.queryShard(query, {
      signal: this.controller.signal,
      ...(context.deadline !== undefined && { deadline: context.deadline }),
      // Retries and throttles of this query are the request's and this shard's.
      ...(context.tally && { observer: shardObserver(context.tally, collection.name, shard) }),
    });
  }

  /** The index sort key attribute, which orders every page. */
  private key(): string {
    return this.inputs.collection.map.index.indexKeyAttribute;
  }

  private count(page: ShardPage, shard: number): void {
    const { stats } = this;
    stats.shardQueries++;
    if (page.hedged) stats.hedges++;
    stats.itemsRead += page.itemsRead;
    if (page.consumedCapacity !== undefined)
      stats.consumedCapacity = (stats.consumedCapacity ?? 0) + page.consumedCapacity;
    const { tally } = this.inputs.context;
    if (!tally) return;
    tally.shardQueries++;
    tally.itemsRead += page.itemsRead;
    const first = page.items[0]?.[this.key()];
    const name = this.inputs.collection.name;
    tally.recorder.shardQueried(name, shard, page.itemsRead, typeof first === 'string' ? first : undefined);
  }
}
