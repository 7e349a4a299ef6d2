import type { Normalization } from '../core/normalize';
import { openEnvironment } from '../runtime/open-environment';
import { scanCollectionKeys } from '../service/collection-keys';
import { ShardMaps } from '../service/shard-maps';
import type { Options } from './boundaries-options';
import { formatAmount, type Progress } from './progress';
import { readKeys } from './read-keys';

/** Counted normalized keys and where they came from. */
export interface SourceKeys {
  readonly counts: Map<string, number>;
  readonly keys: number;
  readonly skipped: ReadonlyMap<string, number>;
  readonly samples: readonly string[];
  readonly source: string;
  /** The collection the keys were scanned from (--collection). */
  readonly collection?: string;
  readonly normalization: Normalization;
}

/** Reads the keys of --input or --collection, reporting progress. */
export async function readSource(
  options: Options,
  env: Record<string, string | undefined>,
  progress: Progress,
): Promise<SourceKeys> {
  if (options.collection !== undefined) {
    const opened = await openEnvironment(env);
    try {
      const collection = opened.collections.find((c) => c.name === options.collection);
      if (!collection) {
        const names = opened.collections.map((c) => c.name).join(', ');
        throw new Error(`no collection ${JSON.stringify(options.collection)} in the config (it has: ${names})`);
      }
      // The index the collection's current shard map lives in (the table's map, not the config's).
      const { read } = await new ShardMaps(opened.maps, [collection], { ttlMs: 0 }).snapshot(collection, {});
      progress.phase('scanning', 0, 'entries');
      const scan = await scanCollectionKeys((request, context) => opened.store.scanPage(request, context), read, {
        onProgress: (entries) => progress.update(entries),
      });
      progress.stop();
      return {
        counts: scan.counts,
        keys: scan.entries,
        skipped: new Map(),
        samples: [],
        source: `collection ${options.collection} (${read.table}/${read.index}, ${opened.where})`,
        collection: options.collection,
        normalization: collection.normalization,
      };
    } finally {
      await opened.close();
    }
  }
  const path = options.input!;
  let phaseSize: number | undefined;
  const read = await readKeys({
    path,
    format: options.format,
    normalization: options.normalization,
    header: options.header,
    ...(options.column !== undefined && { column: options.column }),
    ...(options.field !== undefined && { field: options.field }),
    onProgress: (bytes, keys, size) => {
      if (phaseSize === undefined) {
        phaseSize = size ?? 0;
        progress.phase('reading', phaseSize, 'bytes');
      }
      progress.update(bytes, formatAmount(keys, 'keys'));
    },
  });
  progress.stop();
  const where =
    options.field !== undefined
      ? `, field ${options.field}`
      : options.column !== undefined
        ? `, column ${options.column}`
        : '';
  return {
    counts: read.counts,
    keys: read.keys,
    skipped: read.skipped,
    samples: read.samples,
    source: `${path === '-' ? 'standard input' : path} (${options.format}${where})`,
    normalization: options.normalization,
  };
}
