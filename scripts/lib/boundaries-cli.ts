import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseBoundariesFile } from '../../src/config/boundaries-file';
import { cutBoundaries, DEFAULT_TOLERANCE } from '../../src/core/boundaries/cut-boundaries';
import { keyCountsFromMap } from '../../src/core/boundaries/key-counts';
import { reshardCost } from '../../src/core/boundaries/reshard-cost';
import { codePointLength } from '../../src/core/boundaries/separator';
import { balanceOf, heavyHittersOf, shardLoads } from '../../src/core/boundaries/shard-loads';
import { NORMALIZATIONS, type Normalization } from '../../src/core/normalize';
import { formatReport } from './boundaries-report';
import { scanCollectionKeys } from './collection-scan';
import { openCollection } from './collection-source';
import { formatFromName, INPUT_FORMATS, type InputFormat } from './key-extractors';
import { createProgress, formatAmount, type Progress } from './progress';
import { readKeys } from './read-keys';
import { svgChart } from './shard-chart';

export const USAGE = `Usage: npm run boundaries -- --shards N (--input FILE | --collection NAME) [options]

Cuts N balanced key ranges for a range collection and writes its boundaries file.

Source (one of):
  --input FILE           keys from a file ('-' for standard input)
  --collection NAME      keys of a live collection: a parallel Scan of its index, with
                         the server's environment (SHARDLINE_CONFIG, TABLE_NAME,
                         DYNAMODB_ENDPOINT, AWS_REGION)
Input file:
  --format F             lines (default: one key per line), tsv, csv or ndjson;
                         guessed from .tsv/.csv/.ndjson/.jsonl names
  --column N             0-based column of tsv/csv, as polars counts (default 0);
                         the seed's MusicBrainz 'release' dump: --format tsv --column 2
  --field NAME           column named in the header row (tsv/csv) or JSON field,
                         dotted paths allowed (ndjson)
  --header               skip a header row when using --column
  --normalization N      nfkd-lower (default) or none; must match the collection's
Output:
  --out FILE             the boundaries file (JSON); standard output when omitted
  --chart FILE           an SVG bar chart of the shard sizes
  --compare OLD_FILE     how many items would move to another shard (reshard cost)
  --tolerance T          how far above the mean a shard may grow for shorter
                         boundaries, fraction of the mean (default ${DEFAULT_TOLERANCE})
  --quiet                no progress bar
  --help`;

export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Draw a progress bar (when stderr is a terminal). */
  readonly progress: boolean;
  readonly env: Record<string, string | undefined>;
}

class UsageError extends Error {}

interface Options {
  readonly shards: number;
  readonly input?: string;
  readonly collection?: string;
  readonly format: InputFormat;
  readonly column?: number;
  readonly field?: string;
  readonly header: boolean;
  readonly normalization: Normalization;
  readonly out?: string;
  readonly chart?: string;
  readonly compare?: string;
  readonly tolerance: number;
  readonly quiet: boolean;
}

function parseOptions(argv: string[]): Options | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      shards: { type: 'string' },
      input: { type: 'string' },
      collection: { type: 'string' },
      format: { type: 'string' },
      column: { type: 'string' },
      field: { type: 'string' },
      header: { type: 'boolean', default: false },
      normalization: { type: 'string', default: 'nfkd-lower' },
      out: { type: 'string' },
      chart: { type: 'string' },
      compare: { type: 'string' },
      tolerance: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return 'help';
  const shards = Number(values.shards);
  if (values.shards === undefined || !Number.isInteger(shards) || shards < 1 || shards > 10_000) {
    throw new UsageError(`--shards must be a whole number from 1 to 10000${values.shards === undefined ? '' : `, not ${values.shards}`}`);
  }
  if ((values.input === undefined) === (values.collection === undefined)) {
    throw new UsageError('give exactly one source: --input FILE or --collection NAME');
  }
  const format = (values.format ?? (values.input && formatFromName(values.input)) ?? 'lines') as InputFormat;
  if (!INPUT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${INPUT_FORMATS.join(', ')}, not ${format}`);
  if (!NORMALIZATIONS.includes(values.normalization as Normalization)) {
    throw new UsageError(`--normalization must be one of ${NORMALIZATIONS.join(', ')}, not ${values.normalization}`);
  }
  let column: number | undefined;
  if (values.column !== undefined) {
    column = Number(values.column);
    if (!Number.isInteger(column) || column < 0) throw new UsageError(`--column is a 0-based column number, not ${values.column}`);
    if (format !== 'tsv' && format !== 'csv') throw new UsageError('--column applies to --format tsv or csv');
    if (values.field !== undefined) throw new UsageError('give --column or --field, not both');
  }
  if (format === 'ndjson' && values.field === undefined) throw new UsageError('--format ndjson needs --field NAME');
  if (format === 'lines' && values.field !== undefined) throw new UsageError('--field applies to --format tsv, csv or ndjson');
  const tolerance = values.tolerance === undefined ? DEFAULT_TOLERANCE : Number(values.tolerance);
  if (!(tolerance >= 0 && tolerance <= 1)) throw new UsageError(`--tolerance must be from 0 to 1, not ${values.tolerance}`);
  return {
    shards,
    format,
    header: values.header,
    normalization: values.normalization as Normalization,
    tolerance,
    quiet: values.quiet,
    ...(values.input !== undefined && { input: values.input }),
    ...(values.collection !== undefined && { collection: values.collection }),
    ...(column !== undefined && { column }),
    ...(values.field !== undefined && { field: values.field }),
    ...(values.out !== undefined && { out: values.out }),
    ...(values.chart !== undefined && { chart: values.chart }),
    ...(values.compare !== undefined && { compare: values.compare }),
  };
}

interface SourceKeys {
  readonly counts: Map<string, number>;
  readonly keys: number;
  readonly skipped: ReadonlyMap<string, number>;
  readonly samples: readonly string[];
  readonly source: string;
  readonly normalization: Normalization;
}

async function readSource(options: Options, io: CliIO, progress: Progress): Promise<SourceKeys> {
  if (options.collection !== undefined) {
    const opened = await openCollection(options.collection, io.env);
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
  const where = options.field !== undefined ? `, field ${options.field}` : options.column !== undefined ? `, column ${options.column}` : '';
  return {
    counts: read.counts,
    keys: read.keys,
    skipped: read.skipped,
    samples: read.samples,
    source: `${path === '-' ? 'standard input' : path} (${options.format}${where})`,
    normalization: options.normalization,
  };
}

/** `npm run boundaries`: returns the exit code (0 ok, 1 failure, 2 usage). */
export async function boundariesCli(argv: string[], io: CliIO): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(argv);
  } catch (error) {
    io.stderr(`boundaries: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
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
  const source = await readSource(options, io, progress);
  const readDone = performance.now();
  if (source.keys === 0) throw new Error(`no keys in ${source.source}`);
  if (source.samples.length > 0) io.stderr(`first keys read: ${source.samples.map((s) => JSON.stringify(s)).join(', ')}\n`);

  let sortSteps = -1;
  const keys = keyCountsFromMap(source.counts, (done, total) => {
    if (total !== sortSteps) {
      sortSteps = total;
      progress.phase('sorting', total, 'steps');
    }
    progress.update(done, formatAmount(source.counts.size, 'distinct keys'));
  });
  source.counts.clear();
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

  let compare: { file: string; cost: ReturnType<typeof reshardCost>; note?: string } | undefined;
  if (options.compare !== undefined) {
    const old = parseBoundariesFile(JSON.parse(readFileSync(options.compare, 'utf8')), options.compare);
    const note =
      old.normalization && old.normalization !== source.normalization
        ? `${options.compare} used normalization ${old.normalization}, these keys ${source.normalization}: every key would be rewritten`
        : undefined;
    compare = { file: options.compare, cost: reshardCost(old.boundaries, cut.boundaries, keys), ...(note && { note }) };
  }

  const file = {
    boundaries: cut.boundaries,
    normalization: source.normalization,
    source: source.source,
    keyCount: keys.total,
    distinctKeys: keys.values.length,
    shardCount: options.shards,
    createdAt: new Date().toISOString(),
    balance: { max: round(balance.max), min: round(balance.min), mean: round(balance.mean), maxOverMean: round(balance.maxOverMean, 6) },
    meanBoundaryLength: round(meanBoundaryLength),
    tolerance: options.tolerance,
    heavyHitters: heavy.map((h) => ({ value: h.value, count: h.count, shards: h.shards })),
    shardCounts: Array.from(loads, (load) => round(load)),
    generator: 'npm run boundaries (shardline)',
  };
  const json = `${JSON.stringify(file, null, 2)}\n`;
  if (options.out === undefined || options.out === '-') io.stdout(json);
  else writeFileSync(options.out, json);
  if (options.chart !== undefined) {
    writeFileSync(options.chart, svgChart(loads, cut.boundaries, `${options.shards} shards over ${keys.total.toLocaleString('en-US')} keys from ${source.source}`));
  }

  io.stderr(
    formatReport({
      shards: options.shards,
      keys: keys.total,
      distinct: keys.values.length,
      normalization: source.normalization,
      source: source.source,
      boundaries: cut.boundaries,
      loads,
      balance,
      bestMax: cut.bestMax,
      allowedMax: cut.allowedMax,
      meanBoundaryLength,
      heavyHitters: heavy,
      skipped: source.skipped,
      ...(compare && { compare }),
      seconds: { read: (readDone - started) / 1000, sort: (sortDone - readDone) / 1000, cut: (cutDone - sortDone) / 1000 },
    }),
  );
  if (options.out !== undefined && options.out !== '-') io.stderr(`wrote ${options.out}${options.chart ? ` and ${options.chart}` : ''}\n`);
  return 0;
}

function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
