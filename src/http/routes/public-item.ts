import { etagAttributeOf, type Collection } from '../../core/collection';
import type { JsonObject } from '../../core/item';

/** A stored record as the client wrote it: shardline's index attributes (of both indexes) and ETag removed. */
export function publicItem(collection: Collection, record: JsonObject): JsonObject {
  const [first, second] = collection.indexes;
  // Rest destructuring, not `delete`: the result stays a fast-path object for serializing.
  const {
    [first.shardKeyAttribute]: _firstShard,
    [first.indexKeyAttribute]: _firstIndex,
    [second.shardKeyAttribute]: _secondShard,
    [second.indexKeyAttribute]: _secondIndex,
    [etagAttributeOf(collection)]: _etag,
    ...item
  } = record;
  return item;
}
