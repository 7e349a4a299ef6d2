import { etagAttributeOf, type Collection } from '../../core/collection';
import type { JsonObject } from '../../core/item';
import { emptyRecord, toWire } from '../../core/values';

/** shardline's own attributes on a collection's items: both indexes' keys and the ETag. */
export function hiddenAttributes(collection: Collection): ReadonlySet<string> {
  const [first, second] = collection.indexes;
  return new Set([
    first.shardKeyAttribute,
    first.indexKeyAttribute,
    second.shardKeyAttribute,
    second.indexKeyAttribute,
    etagAttributeOf(collection),
  ]);
}

/**
 * A stored record as the client wrote it, in its JSON form (`toWire`): shardline's own
 * attributes left out and, when `fields` are given, only those (in their order). One pass and
 * one copy: a listing page writes a hundred of these (DESIGN §13).
 */
export function publicWireItem(
  hidden: ReadonlySet<string>,
  record: JsonObject,
  fields: readonly string[] | undefined,
): JsonObject {
  const out = emptyRecord();
  for (const name of fields ?? Object.keys(record)) {
    if (hidden.has(name) || !Object.hasOwn(record, name)) continue;
    // `out` has no prototype, so even `__proto__` is an ordinary own key here.
    out[name] = toWire(record[name]);
  }
  return out;
}
