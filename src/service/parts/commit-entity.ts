import { etagAttributeOf, type CollectionSpec } from '../../core/collection';
import { itemSize, type JsonObject, type PreparedItem } from '../../core/item';
import {
  digestOf,
  entityEtag,
  entityTooLarge,
  MAX_ENTITY_BYTES,
  PARTS_ATTRIBUTE,
  type PartRef,
  partRefs,
  partRefsAttribute,
} from '../../core/parts';
import type { CallContext } from '../../store/retry';
import type { Store, WriteGuard, WriteOutcome } from '../../store/store';
import { type EntityKey, removeParts, stagePart } from './part-chunks';

/** A new version of an entity: its root, and the parts it sets (bytes) or removes (null); other parts stay. */
export interface EntityVersion {
  readonly root: PreparedItem;
  readonly parts: ReadonlyMap<string, Uint8Array | null>;
}

/**
 * Writes `next` over `current` (the root as read) so that a reader sees the whole old entity or the whole
 * new one, whenever the writer stops: the changed parts (digest not the current one) first, each as a new
 * version nothing names yet; then the root naming them, in one conditional PutItem (`guard`); then the
 * replaced versions are removed. A crash leaves only chunks no root names, which `sweepParts` removes.
 */
export async function commitEntity(
  store: Store,
  collection: CollectionSpec,
  key: EntityKey,
  current: JsonObject | undefined,
  next: EntityVersion,
  guard: WriteGuard,
  context: CallContext,
): Promise<WriteOutcome & { etag?: string }> {
  const before = partRefs(current);
  const refs = new Map(before);
  const changed: { part: string; bytes: Uint8Array; digest: string }[] = [];
  for (const [part, bytes] of next.parts) {
    if (bytes === null) refs.delete(part);
    else {
      const digest = digestOf(bytes);
      if (before.get(part)?.digest !== digest) changed.push({ part, bytes, digest });
    }
  }
  const rootBytes = itemSize(next.root.record);
  const total = rootBytes + changed.reduce((sum, { bytes }) => sum + bytes.length, 0);
  const kept = [...refs].filter(([part]) => !changed.some((c) => c.part === part));
  const size = total + kept.reduce((sum, [, ref]) => sum + ref.bytes, 0);
  if (size > MAX_ENTITY_BYTES) throw entityTooLarge(size);

  const staged: [string, PartRef][] = await Promise.all(
    changed.map(async ({ part, bytes, digest }): Promise<[string, PartRef]> => {
      const version = crypto.randomUUID().replaceAll('-', '').slice(0, 16);
      const chunks = await stagePart(store, collection, key, part, version, bytes, context);
      return [part, { version, chunks, digest, bytes: bytes.length }];
    }),
  );
  for (const [part, ref] of staged) refs.set(part, ref);
  const etag = entityEtag(next.root.item, refs);
  const record: JsonObject = { ...next.root.record, [etagAttributeOf(collection)]: etag };
  if (refs.size > 0) record[PARTS_ATTRIBUTE] = partRefsAttribute(refs);
  const outcome = await store.putItem(collection.table, record, context, guard);
  const obsolete = outcome.applied
    ? [...before].filter(([part, ref]) => refs.get(part)?.version !== ref.version)
    : staged;
  // Left behind on a failure here: no root names them, and the sweep removes them.
  await removeParts(store, collection, key, obsolete, context).catch(() => undefined);
  return outcome.applied ? { ...outcome, etag } : outcome;
}
