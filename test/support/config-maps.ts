import { firstMapOf } from '../../src/core/collection';
import { initialPointer } from '../../src/core/shard-map';
import type { MapSource } from '../../src/service/map-source';

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
