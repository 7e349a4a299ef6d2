import type { Collection } from '../../core/collection';
import type { JsonObject } from '../../core/item';

/** A stored record as the client wrote it: shardline's index attributes removed. */
export function publicItem(collection: Collection, record: JsonObject): JsonObject {
  const { [collection.shardKeyAttribute]: _shard, [collection.indexKeyAttribute]: _index, ...item } = record;
  return item;
}
