import pLimit from 'p-limit';
import type { RoutedCollection } from '../core/collection';
import { isShardKeyOf, shardKeyPrefix, valueOfIndexKey } from '../core/index-key';
import type { ScanPage, ScanRequest } from '../store/maintenance';
import type { CallContext } from '../store/retry';

export interface KeyScanOptions {
  /** Scan segments (DynamoDB's TotalSegments), default 8. */
  readonly segments?: number;
  /** Segments scanned at once, default 4. */
  readonly concurrency?: number;
  /** Called after every page with the entries counted so far. */
  readonly onProgress?: (entries: number) => void;
}

export interface KeyScanResult {
  /** Normalized value → index entries. */
  readonly counts: Map<string, number>;
  readonly entries: number;
}

/**
 * Counts the normalized values a live collection holds, by a parallel Scan of the index its read map
 * (`view`) lives in. The index is sparse and may be shared, so only shard keys starting `<prefix>#` count:
 * another collection's prefix may extend this one's (`albums`, `albums-hash`), but never `albums#`.
 */
export async function scanCollectionKeys(
  scanPage: (request: ScanRequest, context: CallContext) => Promise<ScanPage>,
  view: RoutedCollection,
  options: KeyScanOptions = {},
): Promise<KeyScanResult> {
  const segments = options.segments ?? 8;
  const limit = pLimit(options.concurrency ?? 4);
  const counts = new Map<string, number>();
  const { index } = view.map;
  const request = {
    table: view.table,
    index: index.name,
    segments,
    limit: 1000,
    anyOf: [{ kind: 'beginsWith' as const, attribute: index.shardKeyAttribute, prefix: shardKeyPrefix(view.prefix) }],
    attributes: [index.shardKeyAttribute, index.indexKeyAttribute],
  };
  let entries = 0;

  const scanSegment = async (segment: number): Promise<void> => {
    let after: Record<string, unknown> | undefined;
    do {
      const page = await scanPage({ ...request, segment, ...(after && { after }) }, {});
      for (const item of page.items) {
        const shardKey = item[index.shardKeyAttribute];
        const indexKey = item[index.indexKeyAttribute];
        if (!isShardKeyOf(shardKey, view.prefix) || typeof indexKey !== 'string') continue;
        const value = valueOfIndexKey(indexKey);
        counts.set(value, (counts.get(value) ?? 0) + 1);
        entries++;
      }
      options.onProgress?.(entries);
      after = page.next;
    } while (after);
  };

  await Promise.all(Array.from({ length: segments }, (_, segment) => limit(() => scanSegment(segment))));
  return { counts, entries };
}
