import type { CollectionSpec } from '../../core/collection';
import { malformedRecord, ShardlineError } from '../../core/errors';
import type { JsonObject } from '../../core/item';
import {
  CHUNK_ATTRIBUTE,
  chunkSortKey,
  chunksOf,
  decodePart,
  PART_OF_ATTRIBUTE,
  type PartRef,
  WRITTEN_AT_ATTRIBUTE,
} from '../../core/parts';
import { emptyRecord, setOwn } from '../../core/values';
import type { CallContext } from '../../store/retry';
import type { Store } from '../../store/store';
import { MAX_BATCH_GET_KEYS } from '../batch-items';
import { writeGuard } from '../guards';

/** The entity's root key split: partition key (name, value) and root sort key (name, value). */
export interface EntityKey {
  readonly partition: readonly [string, unknown];
  readonly sort: readonly [string, string];
}

export function entityKey(collection: CollectionSpec, key: JsonObject): EntityKey {
  // A collection in parts has a sort key (checked at start: config/config.ts).
  const [partition, sort] = collection.primaryKey.map(({ name }) => name) as [string, string];
  return { partition: [partition, key[partition]], sort: [sort, String(key[sort])] };
}

function chunkKey(key: EntityKey, part: string, ref: Pick<PartRef, 'version'>, chunk: number): JsonObject {
  return {
    [key.partition[0]]: key.partition[1],
    [key.sort[0]]: chunkSortKey(key.sort[1], part, ref.version, chunk),
  };
}

function chunkKeys(key: EntityKey, part: string, ref: PartRef): JsonObject[] {
  return Array.from({ length: ref.chunks }, (_, chunk) => chunkKey(key, part, ref, chunk));
}

/**
 * Writes one version of a part as its chunk items, under a sort key no other write uses (its
 * version is new): nothing reads them until a root names the version.
 */
export async function stagePart(
  store: Store,
  collection: CollectionSpec,
  key: EntityKey,
  part: string,
  version: string,
  bytes: Uint8Array,
  context: CallContext,
): Promise<number> {
  const chunks = chunksOf(bytes);
  // Absent, or an item no collection holds: a chunk never overwrites a member.
  const guard = writeGuard(collection, 'may');
  const writtenAt = Date.now();
  await Promise.all(
    chunks.map(async (chunk, index) => {
      const record = {
        ...chunkKey(key, part, { version }, index),
        [PART_OF_ATTRIBUTE]: key.sort[1],
        [WRITTEN_AT_ATTRIBUTE]: writtenAt,
        [CHUNK_ATTRIBUTE]: chunk,
      };
      const outcome = await store.putItem(collection.table, record, context, guard);
      // A version is new: only an item of a collection, never a chunk, can hold its key already.
      if (!outcome.applied) throw new ShardlineError('conflict', `the chunk ${index} of part "${part}" was refused`);
    }),
  );
  return chunks.length;
}

/** Removes the chunk items of these part versions (absent ones are no matter). */
export async function removeParts(
  store: Store,
  collection: CollectionSpec,
  key: EntityKey,
  refs: Iterable<readonly [string, PartRef]>,
  context: CallContext,
): Promise<void> {
  const guard = writeGuard(collection, 'may');
  const keys = [...refs].flatMap(([part, ref]) => chunkKeys(key, part, ref));
  await Promise.all(keys.map((chunk) => store.deleteItem(collection.table, chunk, context, guard)));
}

/**
 * The attributes of the named parts at the versions `refs` gives, in one round of batch reads (100 keys a
 * call); undefined when a chunk is missing (the root moved on and its old parts went: read the root again).
 */
export async function readParts(
  store: Store,
  collection: CollectionSpec,
  key: EntityKey,
  refs: ReadonlyMap<string, PartRef>,
  context: CallContext,
  consistent: boolean,
): Promise<JsonObject | undefined> {
  const wanted = [...refs].flatMap(([part, ref]) => chunkKeys(key, part, ref));
  const reads: Promise<JsonObject[]>[] = [];
  for (let at = 0; at < wanted.length; at += MAX_BATCH_GET_KEYS) {
    const keys = wanted.slice(at, at + MAX_BATCH_GET_KEYS);
    reads.push(store.batchGet(collection.table, keys, context, consistent ? { consistent } : {}));
  }
  return assembleParts(key, refs, (await Promise.all(reads)).flat());
}

/** The attributes of the parts at the versions `refs` gives, from the chunk items `found`; undefined when one lacks. */
export function assembleParts(
  key: EntityKey,
  refs: ReadonlyMap<string, PartRef>,
  found: readonly JsonObject[],
): JsonObject | undefined {
  const bySortKey = new Map(found.map((item) => [String(item[key.sort[0]]), item]));
  const entity = emptyRecord();
  for (const [part, ref] of refs) {
    const chunks: Uint8Array[] = [];
    for (const chunk of chunkKeys(key, part, ref)) {
      const bytes = bySortKey.get(String(chunk[key.sort[0]]))?.[CHUNK_ATTRIBUTE];
      if (!(bytes instanceof Uint8Array)) return undefined;
      chunks.push(bytes);
    }
    for (const [name, value] of Object.entries(readPart(part, ref, chunks))) setOwn(entity, name, value);
  }
  return entity;
}

/** The attributes of `records` in one record, later ones over earlier (own properties only, `__proto__` too). */
export function merged(...records: JsonObject[]): JsonObject {
  const out = emptyRecord();
  for (const record of records) for (const [name, value] of Object.entries(record)) setOwn(out, name, value);
  return out;
}

/** A part's attributes from its chunks; chunks that are no part shardline wrote are a malformed record (503). */
function readPart(part: string, ref: PartRef, chunks: readonly Uint8Array[]): JsonObject {
  try {
    return decodePart(Buffer.concat(chunks));
  } catch (error) {
    const problem = String((error as Error).message).slice(0, 200);
    throw malformedRecord(`the stored part "${part}" (version ${ref.version}) cannot be read: ${problem}`);
  }
}
