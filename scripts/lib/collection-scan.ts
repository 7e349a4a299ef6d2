import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import pLimit from 'p-limit';
import { valueOfIndexKey } from '../../src/core/index-key';

/** Where a collection's index entries live: what `--collection` scans. */
export interface ScanTarget {
  readonly table: string;
  readonly index: string;
  /** Attribute of the shard partition key, `<prefix>#<shard>`. */
  readonly shardKeyAttribute: string;
  /** Attribute of the index sort key, normalized value + U+0000 + primary key. */
  readonly indexKeyAttribute: string;
  /** The collection's shard-key prefix (its name unless configured). */
  readonly prefix: string;
}

export interface ScanOptions {
  /** Scan segments (DynamoDB's TotalSegments), default 8. */
  readonly segments?: number;
  /** Segments scanned at once, default 4. */
  readonly concurrency?: number;
  /** Called after every page with the entries counted so far. */
  readonly onProgress?: (entries: number) => void;
}

export interface ScanResult {
  /** Normalized value → index entries. */
  readonly counts: Map<string, number>;
  readonly entries: number;
  readonly pages: number;
}

/**
 * Counts the normalized values a live collection holds by a parallel Scan of its
 * index (segments under p-limit), reading only the index keys.
 *
 * The index is sparse and may be shared by several collections, so a filter keeps
 * the entries whose shard key starts with `<prefix>#` (checked again here, as the
 * prefix of another collection could extend this one's, e.g. `albums` and
 * `albums-hash` share `albums`, but never `albums#`). The index sort key already
 * holds the normalized value, so nothing is normalized again. The client is
 * injected: the caller builds it from the server's environment.
 */
export async function scanCollectionKeys(
  client: DynamoDBDocumentClient,
  target: ScanTarget,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const segments = options.segments ?? 8;
  const limit = pLimit(options.concurrency ?? 4);
  const counts = new Map<string, number>();
  const shardPrefix = `${target.prefix}#`;
  let entries = 0;
  let pages = 0;

  const scanSegment = async (segment: number): Promise<void> => {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: target.table,
          IndexName: target.index,
          Segment: segment,
          TotalSegments: segments,
          FilterExpression: 'begins_with(#pk, :prefix)',
          ProjectionExpression: '#pk, #sk',
          ExpressionAttributeNames: { '#pk': target.shardKeyAttribute, '#sk': target.indexKeyAttribute },
          ExpressionAttributeValues: { ':prefix': shardPrefix },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const shardKey = item[target.shardKeyAttribute];
        const indexKey = item[target.indexKeyAttribute];
        if (typeof shardKey !== 'string' || !shardKey.startsWith(shardPrefix) || typeof indexKey !== 'string') continue;
        const value = valueOfIndexKey(indexKey);
        counts.set(value, (counts.get(value) ?? 0) + 1);
        entries++;
      }
      pages++;
      options.onProgress?.(entries);
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  };

  await Promise.all(Array.from({ length: segments }, (_, segment) => limit(() => scanSegment(segment))));
  return { counts, entries, pages };
}
