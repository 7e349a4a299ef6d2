import type { Normalization } from '../../src/core/normalize';
import { scanCollectionKeys } from './collection-scan';
import { openCollection } from './collection-source';
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
  readonly normalization: Normalization;
}

/** Reads the keys of --input or --collection, reporting progress. */
export async function readSource(
  options: Options,
  env: Record<string, string | undefined>,
  progress: Progress,
): Promise<SourceKeys> {
  if (options.collection !== undefined) {
    const opened = await openCollection(options.collection, env);
    try {
      progress.phase('scanning', 0, 'entries');
      const scan = await scanCollectionKeys(opened.client, opened.target, {
        onProgress: (entries) => progress.update(entries),
      });
      progress.stop();
      return {
        counts: scan.counts,
        keys: scan.entries,
        skipped: new Map(),
        samples: [],
        source: `collection ${options.collection} (${opened.target.table}/${opened.target.index}, ${opened.where})`,
        normalization: opened.normalization,
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
