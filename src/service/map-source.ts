import type { CollectionSpec, RoutedCollection } from '../core/collection';
import type { MapPointer } from '../core/shard-map';
import type { CallContext } from '../store/retry';

/** What one request routes by: one pointer, and the collection as each of its maps sees it. */
export interface MapSnapshot {
  readonly pointer: MapPointer;
  /** The collection with the map listings read (its index, its strategy). */
  readonly read: RoutedCollection;
  /** The collection with each map a write sets, the read map first. */
  readonly writes: readonly RoutedCollection[];
  /** During a migration: the collection as the map being built sees it. */
  readonly target?: RoutedCollection;
}

/** Where a request gets the shard maps it routes by. */
export interface MapSource {
  snapshot(collection: CollectionSpec, context: CallContext): Promise<MapSnapshot>;
}
