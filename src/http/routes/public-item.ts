import { etagAttributeOf, type CollectionSpec } from '../../core/collection';
import type { JsonObject } from '../../core/item';
import { PARTS_ATTRIBUTE } from '../../core/parts';
import { setOwn, toWire } from '../../core/values';
import { JsonMembers } from '../json-text';

/** shardline's own attributes on a collection's items: both indexes' keys and the ETag. */
export function hiddenAttributes(collection: CollectionSpec): ReadonlySet<string> {
  const indexes = collection.indexes.flatMap((index) => [index.shardKeyAttribute, index.indexKeyAttribute]);
  // An entity in parts: its root's references to its parts' versions.
  return new Set([...indexes, etagAttributeOf(collection), ...(collection.parts ? [PARTS_ATTRIBUTE] : [])]);
}

/**
 * A stored record as the client wrote it, in its JSON form, without shardline's own attributes and, given `fields`,
 * only those. A view: `jsonText` writes it straight from the record (docs/performance.md); `toJSON` makes the copy.
 */
export class PublicWireItem extends JsonMembers {
  constructor(
    private readonly hidden: ReadonlySet<string>,
    private readonly record: JsonObject,
    private readonly fields: readonly string[] | undefined,
  ) {
    super();
  }

  visitMembers(visit: (name: string, value: unknown) => void): void {
    const { hidden, record } = this;
    for (const name of this.fields ?? Object.keys(record)) {
      if (hidden.has(name) || !Object.hasOwn(record, name)) continue;
      visit(name, toWire(record[name]));
    }
  }

  toJSON(): JsonObject {
    // `setOwn` keeps `__proto__` a name.
    const out: JsonObject = {};
    this.visitMembers((name, value) => setOwn(out, name, value));
    return out;
  }
}
