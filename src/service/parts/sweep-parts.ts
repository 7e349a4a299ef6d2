import type { CollectionSpec } from '../../core/collection';
import type { JsonObject } from '../../core/item';
import { canonicalText } from '../../core/values';
import { PART_OF_ATTRIBUTE, parseChunkSortKey, partRefs, WRITTEN_AT_ATTRIBUTE } from '../../core/parts';
import type { ScanPage, ScanRequest } from '../../store/maintenance';
import type { CallContext } from '../../store/retry';
import type { Store } from '../../store/store';
import { writeGuard } from '../guards';

/** A chunk younger than this may be a write in flight (staged, its root not yet switched): left alone. */
export const DEFAULT_SWEEP_GRACE_MS = 10 * 60 * 1000;

export interface PartsScanner {
  scanPage(request: ScanRequest, context: CallContext): Promise<ScanPage>;
}

export interface SweepReport {
  /** Chunk items seen. */
  readonly chunks: number;
  /** Chunk items no root names, removed. */
  readonly removed: number;
}

/**
 * Removes the chunks of entities in parts that no root names (what a writer killed mid-commit leaves),
 * scanning the collection's table: a chunk is kept while its root names its part's version, or while it
 * is younger than `graceMs` (a write may be in flight). Any collection in parts of the table serves.
 */
export async function sweepParts(
  scanner: PartsScanner,
  store: Store,
  collection: CollectionSpec,
  context: CallContext,
  graceMs = DEFAULT_SWEEP_GRACE_MS,
): Promise<SweepReport> {
  const [partition, sort] = collection.primaryKey.map(({ name }) => name) as [string, string];
  const roots = new Map<string, Promise<JsonObject | undefined>>();
  const rootOf = (key: JsonObject) => {
    const id = canonicalText(key);
    if (!roots.has(id)) roots.set(id, store.getItem(collection.table, key, context, { consistent: true }));
    return roots.get(id)!;
  };
  const guard = writeGuard(collection, 'may');
  const youngest = Date.now() - graceMs;
  let chunks = 0;
  let removed = 0;
  let after: Record<string, unknown> | undefined;
  do {
    const page = await scanner.scanPage(
      {
        table: collection.table,
        segment: 0,
        segments: 1,
        limit: 1000,
        consistent: true,
        attributes: [partition, sort, PART_OF_ATTRIBUTE, WRITTEN_AT_ATTRIBUTE],
        ...(after && { after }),
      },
      context,
    );
    for (const item of page.items) {
      const rootSortKey = item[PART_OF_ATTRIBUTE];
      if (typeof rootSortKey !== 'string') continue;
      chunks++;
      if (Number(item[WRITTEN_AT_ATTRIBUTE] ?? 0) > youngest) continue;
      const named = parseChunkSortKey(rootSortKey, String(item[sort]));
      const root = await rootOf({ [partition]: item[partition], [sort]: rootSortKey });
      if (named && partRefs(root).get(named.part)?.version === named.version) continue;
      const key = { [partition]: item[partition], [sort]: item[sort] };
      if ((await store.deleteItem(collection.table, key, context, guard)).applied) removed++;
    }
    after = page.next;
  } while (after);
  return { chunks, removed };
}
