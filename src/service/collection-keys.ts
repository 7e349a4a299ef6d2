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
  readonly pages: number;
}

/**
 * Counts the normalized values a live collection holds by a parallel Scan of the index
 * its map lives in (`view`: the collection as its read map sees it), reading only the
 * index keys.
 *
 * The index is sparse and may be shared by several collections, so a filter keeps the
 * entries whose shard key starts with `<prefix>#` (checked again here: another
 * collection's prefix may extend this one's, e.g. `albums` and `albums-hash`, but never
 * `albums#`). The index sort key already holds the normalized value.
 */
export async function scanCollectionKeys(
  scanPage: (request: ScanRequest, context: CallContext) => Promise<ScanPage>,
  view: RoutedCollection,
  options: KeyScanOptions = {},
): Promise<KeyScanResult> {
  const segments = options.segments ?? 8;
  const limit = pLimit(options.concurrency ?? 4);
  const counts = new Map<string, number>();
  const shardPrefix = shardKeyPrefix(view.prefix);
  let entries = 0;
  let pages = 0;

  const scanSegment = async (segment: number): Promise<void> => {
    let after: Record<string, unknown> | undefined;
    do {
      const page = await scanPage(
        {
          table: view.table,
          index: view.map.index.name,
          segment,
          segments,
          limit: 1000,
          anyOf: [{ kind: 'beginsWith', attribute: view.map.index.shardKeyAttribute, prefix: shardPrefix }],
          attributes: [view.map.index.shardKeyAttribute, view.map.index.indexKeyAttribute],
          ...(after && { after }),
        },
        {},
      );
      for (const item of page.items) {
        const shardKey = item[view.map.index.shardKeyAttribute];
        const indexKey = item[view.map.index.indexKeyAttribute];
        if (!isShardKeyOf(shardKey, view.prefix) || typeof indexKey !== 'string') continue;
        const value = valueOfIndexKey(indexKey);
        counts.set(value, (counts.get(value) ?? 0) + 1);
        entries++;
      }
      pages++;
      options.onProgress?.(entries);
      after = page.next;
    } while (after);
  };

  await Promise.all(Array.from({ length: segments }, (_, segment) => limit(() => scanSegment(segment))));
  return { counts, entries, pages };
}
