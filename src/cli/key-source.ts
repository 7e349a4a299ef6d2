import { freemem } from 'node:os';
import { KeyCollector, type CollectedKeys } from '../boundaries/key-collector';
import { keyCountsFromMap, type SortProgress } from '../boundaries/key-counts';
import { loadWeightedCounts } from '../autopilot/load-weights';
import { type CollectionOrder, orderOf } from '../core/order';
import type { Options } from './boundaries-options';
import { namedCollection } from './command-line';
import { formatAmount, type Progress } from './progress';
import { readKeys } from './read-keys';

/** Read keys, not yet sorted, and where they came from. */
export interface SourceKeys {
  /** Sorts (or summarizes) what was read into the counts to cut from. */
  readonly collect: (progress?: SortProgress) => CollectedKeys;
  readonly keys: number;
  readonly skipped: ReadonlyMap<string, number>;
  readonly samples: readonly string[];
  readonly source: string;
  readonly collection?: string;
  /** How the keys are ordered: a typed collection's boundaries are written as tuples. */
  readonly order: CollectionOrder;
  /** --weight load: the counts are the fleet's recorded load; what it was. */
  readonly load?: { readonly minutes: number; readonly routers: number; readonly imbalance: number | null };
}

const MIB = 1 << 20;
/** The sketch's budget when the exact count outgrows memory on its own (no --max-memory). */
const FALLBACK_SKETCH_MIB = 256;

export async function readSource(
  options: Options,
  env: Record<string, string | undefined>,
  progress: Progress,
): Promise<SourceKeys> {
  if (options.collection !== undefined) return readCollection(options.collection, env, progress, options.loadMinutes);
  const path = options.input!;
  let phaseSize: number | undefined;
  const collector = new KeyCollector({
    shards: options.shards,
    ...(options.maxMemoryMiB !== undefined && { sketchBytes: options.maxMemoryMiB * MIB }),
    // The exact count holds every key: past a third of the free memory (or 2 GiB of keys) it sketches instead.
    exactLimitBytes: Math.min(2 ** 31 - 1, freemem() / 3),
    fallbackSketchBytes: FALLBACK_SKETCH_MIB * MIB,
  });
  const read = await readKeys(
    {
      ...options,
      path,
      onProgress: (bytes, keys, size) => {
        if (phaseSize === undefined) {
          phaseSize = size ?? 0;
          progress.phase('reading', phaseSize, 'bytes');
        }
        progress.update(bytes, formatAmount(keys, 'keys'));
      },
    },
    collector,
  );
  progress.stop();
  const column = options.column === undefined ? '' : `, column ${options.column}`;
  const where = options.field === undefined ? column : `, field ${options.field}`;
  return {
    collect: (sortProgress) => collector.finish(sortProgress),
    ...read,
    source: `${path === '-' ? 'standard input' : path} (${options.format}${where})`,
    // A file's keys are one string each, normalized as --normalization says.
    order: orderOf({ field: options.field ?? 'key', normalization: options.normalization }),
  };
}

/** A parallel Scan of the collection's index. The AWS SDK is loaded only here: reading a file should not pay for it. */
async function readCollection(
  name: string,
  env: Record<string, string | undefined>,
  progress: Progress,
  loadMinutes: number | undefined,
): Promise<SourceKeys> {
  const [{ openEnvironment }, { scanCollectionKeys }, { recordedLoad }] = await Promise.all([
    import('../runtime/open-environment'),
    import('../service/collection-keys'),
    import('../service/recorded-load'),
  ]);
  const opened = await openEnvironment(env);
  try {
    const collection = namedCollection(opened.collections, name);
    // The index the collection's current shard map lives in (the table's map, not the config's).
    const { read } = await opened.maps.current(collection, {});
    const load =
      loadMinutes === undefined
        ? undefined
        : await recordedLoad(opened.dynamo.loadStore(0), read, loadMinutes, { minuteMs: opened.settings.loadMinuteMs });
    if (load?.window.records === 0) {
      throw new Error(`no load records of ${name} in the last ${loadMinutes} minutes (docs/autopilot.md)`);
    }
    progress.phase('scanning', 0, 'entries');
    const scan = await scanCollectionKeys((request, context) => opened.dynamo.items.scanPage(request, context), read, {
      onProgress: (entries) => progress.update(entries),
    });
    progress.stop();
    return {
      collect: (sortProgress) => ({
        keys: load
          ? loadWeightedCounts(scan.counts, read.map.strategy, load.window)
          : keyCountsFromMap(scan.counts, sortProgress),
      }),
      keys: scan.entries,
      skipped: new Map(),
      samples: [],
      source: `collection ${name} (${read.table}/${read.map.index.name}, ${opened.where})`,
      collection: name,
      order: orderOf(collection),
      ...(load && {
        load: { minutes: loadMinutes!, routers: load.window.routers, imbalance: load.window.imbalance },
      }),
    };
  } finally {
    await opened.close();
  }
}
