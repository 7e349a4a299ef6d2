import { etagAttributeOf, type CollectionSpec } from '../../core/collection';
import type { JsonObject } from '../../core/item';
import { setOwn, toWire } from '../../core/values';

/** shardline's own attributes on a collection's items: both indexes' keys and the ETag. */
export function hiddenAttributes(collection: CollectionSpec): ReadonlySet<string> {
  const indexes = collection.indexes.flatMap((index) => [index.shardKeyAttribute, index.indexKeyAttribute]);
  return new Set([...indexes, etagAttributeOf(collection)]);
}

/**
 * A stored record as the client wrote it, in its JSON form: shardline's own attributes left out and, when `fields`
 * are given, only those (in their order). One pass and one copy: a listing page writes a hundred (DESIGN §13).
 */
export function publicWireItem(
  hidden: ReadonlySet<string>,
  record: JsonObject,
  fields: readonly string[] | undefined,
): JsonObject {
  // An ordinary object, not a prototype-less one: V8 keeps those as dictionaries, slower to fill
  // and to write out. It is only written out, by own names; `setOwn` keeps `__proto__` a name.
  const out: JsonObject = {};
  for (const name of fields ?? Object.keys(record)) {
    if (hidden.has(name) || !Object.hasOwn(record, name)) continue;
    setOwn(out, name, toWire(record[name]));
  }
  return out;
}
