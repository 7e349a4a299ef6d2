import { createHash } from 'node:crypto';
import type { CollectionSpec } from './collection';
import { ShardlineError } from './errors';
import { itemEtag } from './etag';
import { parseExactJson } from './exact-json';
import { ExactNumber } from './exact-number';
import type { JsonObject } from './item';
import { orderOf } from './order';
import { emptyRecord, itemFromWire, itemToWire, setOwn } from './values';

/**
 * An entity in parts (docs/api.md, "Entities in parts"): a root item and, for each part, exact JSON in numbered
 * chunk items under the root's partition key, sort key `<root sk>\u0000<part>\u0000<version>\u0000<chunk>`.
 */
export type PartsConfig = Readonly<Record<string, readonly string[]>>;

/** On the root: part name → `<version>:<chunks>:<digest>:<bytes>` of its current version. */
export const PARTS_ATTRIBUTE = '_parts';
/** On each chunk item: the root's sort key (what makes an item a chunk: never a member, never indexed). */
export const PART_OF_ATTRIBUTE = '_partOf';
/** On each chunk item: its bytes. */
export const CHUNK_ATTRIBUTE = '_chunk';
/** On each chunk item: when it was written (epoch ms): the sweep leaves unreferenced chunks younger than its grace. */
export const WRITTEN_AT_ATTRIBUTE = '_writtenAt';

export const SEPARATOR = '\u0000';
/** Largest entity in parts, as stored (its attributes' sizes; DynamoDB's per-response limit). */
export const MAX_ENTITY_BYTES = 16 * 1024 * 1024;
/** Bytes of one chunk: an item holds 400 KB with its keys and names. */
export const CHUNK_BYTES = 350 * 1024;

/** One part's current version as the root names it. */
export interface PartRef {
  readonly version: string;
  readonly chunks: number;
  readonly digest: string;
  readonly bytes: number;
}

/** Why `parts` cannot be used on this collection, or undefined when it can. */
export function partsProblem(spec: CollectionSpec, parts: PartsConfig): string | undefined {
  const sortKey = spec.primaryKey[1];
  if (sortKey?.type !== 'S') {
    return 'parts need a table with a string sort key: each part is an item beside the root, under its partition key';
  }
  const keys = new Set(spec.primaryKey.map(({ name }) => name));
  const ordered = new Set(orderOf(spec).map(({ field }) => field));
  const seen = new Map<string, string>();
  for (const [part, attributes] of Object.entries(parts)) {
    if (part.length === 0 || part.includes(SEPARATOR)) return `part name "${part}" must be non-empty, without U+0000`;
    if (attributes.length === 0) return `part "${part}" names no attribute`;
    for (const attribute of attributes) {
      if (keys.has(attribute)) return `"${attribute}" is a primary key attribute: it stays on the root`;
      if (ordered.has(attribute)) return `"${attribute}" is an ordered field: it stays on the root, which is indexed`;
      const other = seen.get(attribute);
      if (other !== undefined) return `"${attribute}" is in two parts ("${other}" and "${part}")`;
      seen.set(attribute, part);
    }
  }
  return undefined;
}

export function partOfAttribute(parts: PartsConfig): ReadonlyMap<string, string> {
  return new Map(Object.entries(parts).flatMap(([part, attributes]) => attributes.map((a) => [a, part] as const)));
}

/** The entity's attributes split: the root's, and each non-empty part's. */
export function splitEntity(
  parts: PartsConfig,
  entity: JsonObject,
): { root: JsonObject; parts: Map<string, JsonObject> } {
  const owner = partOfAttribute(parts);
  const root = emptyRecord();
  const split = new Map<string, JsonObject>();
  for (const [name, value] of Object.entries(entity)) {
    const part = owner.get(name);
    if (part !== undefined && !split.has(part)) split.set(part, emptyRecord());
    setOwn(part === undefined ? root : split.get(part)!, name, value);
  }
  return { root, parts: split };
}

/** A part's attributes as bytes: exact JSON in the wire form (numbers keep their digits, sets, binary). */
export function encodePart(attributes: JsonObject): Uint8Array {
  return new TextEncoder().encode(jsonOf(itemToWire(attributes)));
}

/** JSON text with numbers as their digits, not quoted as `ExactNumber.toJSON` would have them. */
function jsonOf(value: unknown): string {
  if (value instanceof ExactNumber) return String(value);
  if (Array.isArray(value)) return `[${value.map(jsonOf).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    // Own names, `__proto__` included (the wire form keeps it as a member).
    const members = Object.entries(value).map(([name, element]) => `${JSON.stringify(name)}:${jsonOf(element)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function decodePart(bytes: Uint8Array): JsonObject {
  return itemFromWire(parseExactJson(new TextDecoder().decode(bytes)) as JsonObject);
}

export function digestOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
}

/** The bytes cut into chunks of CHUNK_BYTES (at least one). */
export function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length || chunks.length === 0; at += CHUNK_BYTES) {
    chunks.push(bytes.subarray(at, at + CHUNK_BYTES));
  }
  return chunks;
}

export function chunkSortKey(rootSortKey: string, part: string, version: string, chunk: number): string {
  return [rootSortKey, part, version, String(chunk)].join(SEPARATOR);
}

/** The part and version a chunk's sort key names, when it is a chunk of that root. */
export function parseChunkSortKey(rootSortKey: string, sortKey: string): { part: string; version: string } | undefined {
  if (!sortKey.startsWith(rootSortKey + SEPARATOR)) return undefined;
  const [part, version] = sortKey.slice(rootSortKey.length + 1).split(SEPARATOR);
  return part !== undefined && version !== undefined ? { part, version } : undefined;
}

/** The part references a root holds (none when it holds none, or not as shardline writes them). */
export function partRefs(root: JsonObject | undefined): Map<string, PartRef> {
  const refs = new Map<string, PartRef>();
  const stored = root?.[PARTS_ATTRIBUTE];
  if (!stored || typeof stored !== 'object') return refs;
  for (const [part, text] of Object.entries(stored as JsonObject)) {
    const [version, chunks, digest, bytes] = String(text).split(':');
    if (version && chunks && digest) refs.set(part, { version, chunks: Number(chunks), digest, bytes: Number(bytes) });
  }
  return refs;
}

export function partRefsAttribute(refs: ReadonlyMap<string, PartRef>): JsonObject {
  const out = emptyRecord();
  for (const [part, ref] of refs) setOwn(out, part, `${ref.version}:${ref.chunks}:${ref.digest}:${ref.bytes}`);
  return out;
}

/** Whether a stored item is a chunk of an entity in parts (never a member of a collection). */
export function isPartItem(item: JsonObject): boolean {
  return typeof item[PART_OF_ATTRIBUTE] === 'string';
}

/** A 413 naming the limit. */
export function entityTooLarge(bytes: number): ShardlineError {
  return new ShardlineError(
    'payload_too_large',
    `the entity is ${bytes} bytes; an entity in parts holds at most ${MAX_ENTITY_BYTES} (16 MiB)`,
    { limitBytes: MAX_ENTITY_BYTES },
  );
}

/** The ETag of the whole entity: of the root's attributes and each part's digest (a part changes, its digest does). */
export function entityEtag(root: JsonObject, refs: ReadonlyMap<string, PartRef>): string {
  const digests = Object.fromEntries([...refs].map(([part, ref]) => [part, ref.digest]));
  return itemEtag({ ...root, [SEPARATOR]: digests });
}
