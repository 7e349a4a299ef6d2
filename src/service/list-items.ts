import type { RoutedCollection } from '../core/collection';
import type { ListRequest } from '../core/plan';
import type { RequestContext } from './metrics/request-tally';
import type { Store } from '../store/store';
import { ListingExecutor } from './listing/executor';
import type { Listing } from './listing/listing';
import type { ShardTails } from './shard-tails';

/**
 * Reads one page of a sorted listing (see ListingExecutor): complete and in order, or an error.
 * `memory` is the caller's (one per collection and shard layout), so that what a page reads
 * depends on the memory it is given, never on which requests this module happened to serve.
 */
export function listItems(
  store: Store,
  collection: RoutedCollection,
  request: ListRequest,
  limit: number,
  context: RequestContext,
  memory: ShardTails,
): Promise<Listing> {
  return new ListingExecutor({ store, collection, memory, context }, request, limit).run();
}
