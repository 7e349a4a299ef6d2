import type { JsonObject } from '../../core/item';
import type { ReadHint } from '../../core/read-hint';

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
