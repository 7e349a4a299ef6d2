import { readFileSync, writeFileSync } from 'node:fs';
import { orderForm, orderSpec, readableValues, roundedBoundaries, writtenNormalization } from '../core/order';
import { cutBoundaries } from '../boundaries/cut-boundaries';
import type { SketchBounds } from '../boundaries/key-sketch';
import { reshardCost } from '../boundaries/reshard-cost';
import { codePointLength } from '../boundaries/separator';
import { balanceOf, heavyHittersOf, shardLoads } from '../boundaries/shard-loads';
import { parseOptions, USAGE, type Options } from './boundaries-options';
import { type BoundariesSummary, formatReport } from './boundaries-report';
import { readSource } from './key-source';
import { reshardVerdict } from './reshard-verdict';
import { readOptions, type ScriptIO } from './command-line';
import { createProgress, formatAmount, type Progress } from './progress';
import { shardChart } from './shard-chart';
import { formatCount } from '../core/count-text';

export interface CliIO extends ScriptIO {
  /** Draw a progress bar (when stderr is a terminal). */
  readonly progress: boolean;
}

/** `npm run boundaries`: returns the exit code (0 ok, 1 failure, 2 usage). */
export async function boundariesCli(argv: string[], io: CliIO): Promise<number> {
  const options = readOptions('boundaries', USAGE, io, () => parseOptions(argv));
  if (typeof options === 'number') return options;
  const progress = createProgress(io.progress && !options.quiet);
  try {
    return await run(options, io, progress);
  } catch (error) {
    progress.stop();
    io.stderr(`boundaries: ${(error as Error).message}\n`);
    return 1;
  }
}

async function run(options: Options, io: CliIO, progress: Progress): Promise<number> {
  const started = performance.now();
  const source = await readSource(options, io.env, progress);
  const readDone = performance.now();
  if (source.keys === 0) {
    const skipped = [...source.skipped].map(([reason, n]) => `${formatCount(n)} ${reason}`).join(', ');
    throw new Error(`no keys in ${source.source}${skipped ? ` (skipped: ${skipped})` : ''}`);
  }
  if (source.samples.length > 0)
    io.stderr(`first keys read: ${source.samples.map((s) => JSON.stringify(s)).join(', ')}\n`);

  let sortSteps = -1;
  const { keys, sketch } = source.collect((done, total) => {
    if (total !== sortSteps) {
      sortSteps = total;
      progress.phase('sorting', total, 'steps');
    }
    progress.update(done, formatAmount(source.keys, 'keys'));
  });
  progress.stop();
  const sortDone = performance.now();

  const cut = cutBoundaries(keys, { shards: options.shards, tolerance: options.tolerance });
  const cutDone = performance.now();
  // Counted again from the boundaries alone, as the router will route them.
  const loads = shardLoads(cut.boundaries, keys);
  const balance = balanceOf(loads);
  const heavy = heavyHittersOf(cut.boundaries, keys);
  const lengths = cut.boundaries.slice(1).map((b) => codePointLength(b));
  const meanBoundaryLength = lengths.length > 0 ? lengths.reduce((a, b) => a + b, 0) / lengths.length : 0;

  let compare: BoundariesSummary['compare'];
  if (options.compare !== undefined) {
    // Loaded only here: its schema library costs every other run time at start.
    const { parseBoundariesFile } = await import('../config/boundaries-file');
    const old = parseBoundariesFile(JSON.parse(readFileSync(options.compare, 'utf8')), options.compare, source.order);
    const note =
      old.normalization && old.normalization !== orderSpec(source.order).normalization
        ? `${options.compare} used normalization ${old.normalization},` +
          ` these keys ${orderSpec(source.order).normalization}: every key would be rewritten`
        : undefined;
    const cost = reshardCost(old.boundaries, cut.boundaries, keys);
    // The keys as the current boundaries place them: the balance a reshard starts from.
    const verdict = reshardVerdict(balanceOf(shardLoads(old.boundaries, keys)), balance, cost);
    compare = { file: options.compare, cost, verdict, ...(note && { note }) };
  }

  // A typed collection's are tuples, rounded to whole fields, shown as such everywhere.
  const shown = (value: string) => readableValues(source.order, value) ?? value;
  const shownBoundaries = roundedBoundaries(source.order, cut.boundaries, keys.values).map(shown);
  const keyCount = source.load ? source.keys : sketch ? sketch.items : keys.total;
  const sketched = sketch && sketchSummary(sketch, options.shards);
  const file = {
    boundaries: shownBoundaries,
    ...writtenNormalization(source.order),
    source: source.source,
    // `npm run reshard` refuses a file cut from another collection's keys.
    ...(source.collection !== undefined && { collection: source.collection }),
    keyCount,
    // --weight load: the counts were load shares, the balance is the predicted load's.
    ...(source.load && {
      weight: {
        by: 'load',
        minutes: source.load.minutes,
        routers: source.load.routers,
        currentMaxOverMean: source.load.imbalance === null ? null : round(source.load.imbalance, 6),
        predictedMaxOverMean: round(balance.maxOverMean, 6),
      },
    }),
    // A sketch holds a sample of the keys, not the distinct ones: it states its error instead.
    ...(sketched ? { sketch: sketched } : { distinctKeys: keys.values.length }),
    shardCount: options.shards,
    createdAt: new Date().toISOString(),
    balance: {
      max: round(balance.max),
      min: round(balance.min),
      mean: round(balance.mean),
      maxOverMean: round(balance.maxOverMean, 6),
    },
    meanBoundaryLength: round(meanBoundaryLength),
    tolerance: options.tolerance,
    heavyHitters: heavy.map((h) => ({ ...h, value: shown(h.value) })),
    shardCounts: Array.from(loads, (load) => round(load)),
    generator: 'npm run boundaries (shardline)',
  };
  const json = `${JSON.stringify(file, null, 2)}\n`;
  if (options.out === undefined || options.out === '-') io.stdout(json);
  else writeFileSync(options.out, json);
  const title = `${options.shards} shards over ${formatCount(keys.total)} keys from ${source.source}`;
  if (options.chart !== undefined) writeFileSync(options.chart, shardChart(loads, shownBoundaries, title));

  io.stderr(
    formatReport({
      shards: options.shards,
      keys: keyCount,
      distinct: sketch ? undefined : keys.values.length,
      ...(sketched && { sketch: sketched }),
      keyForm: orderForm(source.order),
      source: source.source,
      boundaries: shownBoundaries,
      loads,
      balance,
      bestMax: cut.bestMax,
      allowedMax: cut.allowedMax,
      meanBoundaryLength,
      heavyHitters: heavy,
      skipped: source.skipped,
      ...(compare && { compare }),
      seconds: {
        read: (readDone - started) / 1000,
        sort: (sortDone - readDone) / 1000,
        cut: (cutDone - sortDone) / 1000,
      },
    }),
  );
  if (source.load) {
    const now = source.load.imbalance === null ? 'none recorded' : source.load.imbalance.toFixed(2);
    io.stderr(
      `weighted by the fleet's load over ${source.load.minutes} min (${source.load.routers} routers): ` +
        `largest ÷ mean shard load now ${now}, with these boundaries ${balance.maxOverMean.toFixed(2)} (predicted)\n`,
    );
  }
  if (options.out !== undefined && options.out !== '-')
    io.stderr(`wrote ${options.out}${options.chart ? ` and ${options.chart}` : ''}\n`);
  return 0;
}

/** The sketch's guarantee in the file and the report: every shard's count within ± shardError items. */
function sketchSummary(sketch: SketchBounds, shards: number) {
  const mean = sketch.items / shards;
  // A shard's count is the difference of two positions, each off by at most the rank error.
  const shardError = 2 * sketch.rankError;
  return {
    retainedKeys: sketch.retained,
    capacity: sketch.capacity,
    rankErrorBound: sketch.rankError,
    shardCountErrorBound: shardError,
    maxOverMeanErrorBound: round(mean > 0 ? shardError / mean : 0, 6),
    heavyHitterErrorBound: sketch.heavyError,
  };
}

function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
