/**
 * One page of a sorted listing, through this folder: plan → waves → merge → page. executor.ts's
 * `listPage` plans it (core/plan.ts: ordered groups of shards, one key range) and reads the groups
 * in order; waves: read-policy.ts sizes each query (read-limits.ts: a merged group's waves, from
 * the keys read or the cursor's core/read-hint.ts), read-ahead.ts sends range shards early as
 * shard-tails.ts (each shard's last keys, kept across requests) or shards run short say, shard-reads.ts
 * builds each query; merge: group-reads.ts feeds the answers to core/merge.ts; page: the executor
 * cuts the merge at the page's size and counts its cost. shrinking-group.ts: a shrinking group's
 * page, two such pages merged. The store is seen only through ShardSource; pure parts are in core.
 */
import type { JsonObject } from '../../core/item';
import type { ReadHint } from '../../core/read-hint';
import type { CallContext } from '../../store/retry';
import type { ShardQuery } from '../../store/shard-query';
import type { ShardPage } from '../../store/store';

/** The one thing a listing asks of the store: a page of one shard (the Store satisfies it). */
export interface ShardSource {
  queryShard(query: ShardQuery, context: CallContext): Promise<ShardPage>;
}

/** What one page of a listing cost. */
export interface ListingStats {
  shardQueries: number;
  /** Shard queries sent a second time because the first was slow (hedged). */
  hedges: number;
  itemsRead: number;
  consumedCapacity: number | undefined;
  /** Waves of queries the page waited for one after another: its round trips to DynamoDB. */
  roundTrips: number;
  /** Wall time spent waiting for DynamoDB. */
  dynamoMs: number;
}

export interface Listing {
  /** Stored records in listing order (index attributes included). */
  readonly records: JsonObject[];
  /** Index sort key of the last record when more follow, else undefined. */
  readonly nextPosition: string | undefined;
  /** For the next page's cursor, with nextPosition: what this page read past its end. */
  readonly nextHint?: ReadHint;
  readonly stats: ListingStats;
}
