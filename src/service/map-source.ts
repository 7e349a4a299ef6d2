import { type CollectionSpec, firstMapOf } from '../core/collection';
import { initialPointer } from '../core/shard-map';
import type { CallContext } from '../store/retry';
import type { MapSnapshot } from './shard-maps';

/** Where a request gets the shard maps it routes by. */
export interface MapSource {
  snapshot(collection: CollectionSpec, context: CallContext): Promise<MapSnapshot>;
}

/** The config's strategies as version 1 in the first index, never changing: for tests over a fake store. */
export function configMaps(): MapSource {
  const pointer = initialPointer(0);
  return {
    snapshot: async (collection) => {
      const read = firstMapOf(collection);
      return { pointer, read, writes: [read] };
    },
  };
}
