import { readFileSync } from 'node:fs';
import { parseBoundariesFile } from '../config/boundaries-file';
import { cutBoundaries } from '../boundaries/cut-boundaries';
import { keyCountsFromMap } from '../boundaries/key-counts';
import { type RoutedCollection, routedBy } from '../core/collection';
import { refused } from '../core/errors';
import { orderOf, roundedBoundaries } from '../core/order';
import { normalize } from '../core/normalize';
import { strategyFromConfig, type StrategyConfig } from '../core/strategies';
import { describe } from '../reshard/orchestrator';
import { exitCodeOf, finishedLine, openReshard } from '../reshard/run-reshard';
import { openEnvironment, type OpenEnvironment } from '../runtime/open-environment';
import { scanCollectionKeys } from '../service/collection-keys';
import { reshardProgress, type ReshardProgress } from './reshard-progress';
import { namedCollection, readOptions, refusing, type ScriptIO } from './command-line';
import { parseReshardOptions, USAGE, type ReshardOptions } from './reshard-options';
import { formatStatus } from './reshard-status';
import { confirmed, resizeGroupCli } from './group-resize-cli';
import { formatCount } from '../core/count-text';

export interface ReshardIO extends ScriptIO {
  /** Aborted on SIGINT/SIGTERM: the run stops at its next safe point (exit code 130). */
  readonly stop?: AbortSignal;
  /** Draw a progress bar (when stderr is a terminal). */
  readonly progress: boolean;
  /** Asks before starting; undefined where nobody can answer (then --yes is needed). */
  readonly confirm?: (question: string) => Promise<boolean>;
}

/**
 * Exit codes: 0 done, 1 failed, 2 bad command line, 3 refused (bad input or state; nothing changed),
 * 130 stopped when asked (SIGINT/SIGTERM), at a safe point, to be resumed by the same command.
 */
export async function reshardCli(argv: string[], io: ReshardIO): Promise<number> {
  const options = readOptions('reshard', USAGE, io, () => parseReshardOptions(argv));
  if (typeof options === 'number') return options;
  let opened: OpenEnvironment | undefined;
  const progress = reshardProgress(io.progress && !options.quiet, io.stderr);
  try {
    opened = await openEnvironment(io.env);
    return await run(options, opened, io, progress);
  } catch (error) {
    const code = exitCodeOf(error);
    const resume = code === 130 ? '. Run the same command again to resume.' : '';
    io.stderr(`reshard: ${(error as Error).message}${resume}\n`);
    return code;
  } finally {
    progress.stop();
    await opened?.close();
  }
}

async function run(
  options: ReshardOptions,
  opened: OpenEnvironment,
  io: ReshardIO,
  progress: ReshardProgress,
): Promise<number> {
  const collection = namedCollection(opened.collections, options.collection);
  if (options.action.kind === 'group') return resizeGroupCli(options.action, collection, opened, io, options.yes);
  if (collection.group && options.action.kind === 'reshard') {
    throw refused(
      `"${collection.name}" is grouped by "${collection.group.field}": resize one group with --group G --shards N`,
    );
  }
  const reshard = openReshard(opened, collection, {
    segments: options.segments,
    waitForLease: options.wait,
    ...(io.stop && { stop: io.stop }),
    ...(options.rate !== undefined && { rate: options.rate }),
    log: (line) => {
      progress.pause();
      io.stderr(`reshard: ${line}\n`);
    },
    onProgress: (counts) => progress.update(counts),
  });
  const action = options.action;
  if (action.kind === 'status') {
    const pointer = await reshard.pointer();
    io.stdout(await formatStatus(collection, pointer, (v) => reshard.strategyOf(v), action.json, Date.now()));
    return 0;
  }
  if (action.kind === 'verify' || action.kind === 'repair') {
    const outcome = await reshard.checkEntries(action.kind === 'repair');
    progress.stop();
    const { members, stale } = outcome.checked ?? { members: 0, stale: 0 };
    io.stdout(
      `${collection.name}: ${formatCount(members)} members checked; ` +
        `${formatCount(stale)} with an index entry their ordered ` +
        (action.kind === 'repair'
          ? `fields disagree with, ${formatCount(outcome.moved)} rewritten\n`
          : `fields disagree with${stale > 0 ? ' (npm run reshard -- --repair rewrites them)' : ''}\n`),
    );
    return 0;
  }
  if (action.kind !== 'reshard') {
    const outcome = await reshard[action.kind]();
    progress.stop();
    io.stdout(
      `${collection.name}: ${action.kind} done; ${outcome.moved} items updated; phase ${outcome.pointer.phase}\n`,
    );
    return 0;
  }

  const current = await reshard.pointer();
  const reading = await reshard.strategyOf(current.read.version);
  // The collection as its current read map sees it: what a live scan for new boundaries reads.
  const readView = routedBy(collection, current.read.version, reading, current.read.slot);
  const target = await targetStrategy(action, readView, opened);
  if (current.phase === 'stable' && !options.yes) {
    const items = await opened.dynamo.items.approximateItemCount(collection.table, {});
    const question =
      `${collection.name}: ${describe(reading)} (v${current.read.version}) → ` +
      `${describe(strategyFromConfig(target))}; ` +
      `the table holds about ${formatCount(items)} items. Start?`;
    if (!(await confirmed(io, question))) return 3;
  }
  const started = Date.now();
  const outcome = await reshard.run(target);
  progress.stop();
  const seconds = (Date.now() - started) / 1000;
  io.stdout(`${finishedLine(collection.name, outcome, seconds)}\n`);
  return 0;
}

/** The map to move to, checked against the collection before anything changes. */
async function targetStrategy(
  action: Extract<ReshardOptions['action'], { kind: 'reshard' }>,
  collection: RoutedCollection,
  opened: OpenEnvironment,
): Promise<StrategyConfig> {
  if ('boundaries' in action) return { kind: 'range', boundaries: readBoundaries(action.boundaries, collection) };
  const kind = action.strategy ?? collection.map.strategy.kind;
  // Every strategy but range is made from a shard count (one that needs more, its schema refuses).
  if (kind !== 'range') return { kind, shards: action.shards };
  if (!action.strategy) {
    throw refused(
      `"${collection.name}" is a range collection: give --boundaries FILE, or --shards N --strategy range ` +
        'to cut N balanced ranges from its live keys',
    );
  }
  // Boundaries cut from the keys the collection holds now, read from the index reads use.
  const scan = await scanCollectionKeys(
    (request, context) => opened.dynamo.items.scanPage(request, context),
    collection,
  );
  if (scan.entries === 0) throw refused(`"${collection.name}" holds no items to cut boundaries from`);
  const counts = keyCountsFromMap(scan.counts);
  const { boundaries } = cutBoundaries(counts, { shards: action.shards });
  // Typed cuts end on field boundaries, as a boundaries file's do: each reads back as a tuple (GET /collections).
  return { kind: 'range', boundaries: roundedBoundaries(orderOf(collection), boundaries, counts.values) };
}

/** A boundaries file for this collection: sorted, in its normalization, cut from its keys if from any collection's. */
function readBoundaries(path: string, collection: RoutedCollection): string[] {
  const json: unknown = refusing(() => JSON.parse(readFileSync(path, 'utf8')), `cannot read ${path}: `);
  const file = refusing(() => parseBoundariesFile(json, path, orderOf(collection)));
  const fromCollection = file.collection ?? /^collection (\S+) \(/.exec(file.source ?? '')?.[1];
  if (fromCollection !== undefined && fromCollection !== collection.name) {
    throw refused(`${path} was cut from collection "${fromCollection}", not "${collection.name}"`);
  }
  if (file.normalization && file.normalization !== collection.normalization) {
    throw refused(
      `${path} was computed with normalization ${file.normalization}; ` +
        `"${collection.name}" uses ${collection.normalization}`,
    );
  }
  file.boundaries.forEach((boundary, i) => {
    const normalized = normalize(boundary, collection.normalization);
    if (normalized !== boundary) {
      throw refused(
        `${path}: boundary ${i} ${JSON.stringify(boundary)} is not in "${collection.name}"'s normalization ` +
          `(${collection.normalization} makes it ${JSON.stringify(normalized)}): no value would ever equal it`,
      );
    }
  });
  return file.boundaries;
}
