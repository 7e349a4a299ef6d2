import type { CollectionSpec } from '../core/collection';
import { malformedRecord } from '../core/errors';
import type { JsonObject } from '../core/item';
import type { MapPointer } from '../core/shard-map';
import { reservedKey } from './reserved-keys';

// Where a collection's map items live and how their JSON is stored (store/map-store.ts reads and writes them).

/** Throws the problem alone: the reader names the record (MalformedRecords). */
export function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') throw malformedRecord('its JSON attribute is not a string');
  try {
    return JSON.parse(text);
  } catch {
    throw malformedRecord('its JSON attribute is not JSON');
  }
}

export function pointerAttributes(pointer: MapPointer): JsonObject {
  return { revision: pointer.revision, pointer: JSON.stringify(pointer) };
}

/** Whose a map item is: a group map names its owner apart, so readers of pointers never take it for theirs. */
export function ownerOf(collection: CollectionSpec, which: MapItem): string {
  return which === 'groups' ? `${collection.name}#groups` : collection.name;
}

/** A collection's map items: its pointer, its group map, and its versions by number. */
export type MapItem = 'pointer' | 'groups' | number;

/**
 * The reserved key of a collection's pointer or of one of its versions (`__shardline#map#<collection>`);
 * a string sort key holds `pointer` / `v<version>`, a numeric one 0 / the version.
 */
export function mapKey(collection: CollectionSpec, which: MapItem): JsonObject {
  const owner = `map#${collection.name}`;
  const item = typeof which === 'number' ? `v${which}` : which;
  if (collection.primaryKey.length === 1) return reservedKey(collection, `${owner}#${item}`, [item, 0]);
  return reservedKey(collection, owner, [item, typeof which === 'number' ? which : which === 'pointer' ? 0 : -1]);
}
