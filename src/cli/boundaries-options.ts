import { DEFAULT_TOLERANCE } from '../boundaries/cut-boundaries';
import { invalidRequest } from '../core/errors';
import { NORMALIZATIONS, type Normalization } from '../core/normalize';
import { readCommandLine } from './command-line';
import { formatFromName, INPUT_FORMATS, type InputFormat } from './key-extractors';

export const USAGE = `Usage: npm run boundaries -- --shards N (--input FILE | --collection NAME) [options]

Cuts N balanced key ranges for a range collection and writes its boundaries file.

Source (one of):
  --input FILE           keys from a file ('-' for standard input)
  --collection NAME      keys of a live collection: a parallel Scan of its index, with
                         the server's environment (SHARDLINE_CONFIG, TABLE_NAME,
                         DYNAMODB_ENDPOINT, AWS_REGION)
Input file:
  --format F             lines (default: one key per line), tsv, csv, ndjson or
                         dynamodb-export (--input is the folder of a DynamoDB S3
                         export, AWSDynamoDB/<id>/data/*.json.gz; needs --field);
                         guessed from .tsv/.csv/.ndjson/.jsonl names
  --column N             0-based column of tsv/csv, as polars counts (default 0);
                         the seed's MusicBrainz 'release' dump: --format tsv --column 2
  --field NAME           column named in the header row (tsv/csv), JSON field,
                         dotted paths allowed (ndjson), attribute (dynamodb-export)
  --header               skip a header row when using --column
  --normalization N      nfkd-lower (default) or none; must match the collection's
                         (--collection reads the index's already normalized values)
Memory:
  --max-memory MIB       cut from a mergeable sketch of the keys held in MIB
                         (quantiles plus heavy hitters), one pass, whatever the
                         input's size; the report states the sketch's error bound.
                         Without it the count is exact, and turns into a sketch
                         by itself when the keys would not fit in memory
Output:
  --out FILE             the boundaries file (JSON); standard output when omitted
  --chart FILE           an SVG bar chart of the shard sizes
  --compare OLD_FILE     how many items would move to another shard (reshard cost)
  --tolerance T          how far above the mean a shard may grow for shorter
                         boundaries, fraction of the mean (default ${DEFAULT_TOLERANCE})
  --weight load          with --collection: balance the load the fleet's routers
                         recorded (docs/autopilot.md), not item counts
    --minutes M          the minutes of load to weigh by (default 10)
  --quiet                no progress bar
  --help`;

export type Options = Exclude<ReturnType<typeof parseOptions>, 'help'>;

const SPEC = {
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
    'max-memory': { type: 'string' },
    weight: { type: 'string' },
    minutes: { type: 'string' },
  },
} as const;

export function parseOptions(argv: string[]) {
  return readCommandLine(SPEC, argv, ({ values }) => {
    const shards = whole('shards', values.shards, 10_000);
    if ((values.input === undefined) === (values.collection === undefined)) {
      throw invalidRequest('give exactly one source: --input FILE or --collection NAME');
    }
    const format = (values.format ?? (values.input && formatFromName(values.input)) ?? 'lines') as InputFormat;
    if (!INPUT_FORMATS.includes(format))
      throw invalidRequest(`--format must be one of ${INPUT_FORMATS.join(', ')}, not ${format}`);
    if (!NORMALIZATIONS.includes(values.normalization as Normalization)) {
      throw invalidRequest(`--normalization must be one of ${NORMALIZATIONS.join(', ')}, not ${values.normalization}`);
    }
    let column: number | undefined;
    if (values.column !== undefined) {
      column = Number(values.column);
      if (!Number.isInteger(column) || column < 0)
        throw invalidRequest(`--column is a 0-based column number, not ${values.column}`);
      if (format !== 'tsv' && format !== 'csv') throw invalidRequest('--column applies to --format tsv or csv');
      if (values.field !== undefined) throw invalidRequest('give --column or --field, not both');
    }
    if ((format === 'ndjson' || format === 'dynamodb-export') && values.field === undefined)
      throw invalidRequest(`--format ${format} needs --field NAME`);
    const maxMemory = values['max-memory'] === undefined ? undefined : Number(values['max-memory']);
    if (maxMemory !== undefined && !(Number.isInteger(maxMemory) && maxMemory >= 16 && maxMemory <= 1 << 20))
      throw invalidRequest(`--max-memory is a whole number of MiB from 16, not ${values['max-memory']}`);
    if (maxMemory !== undefined && values.collection !== undefined)
      throw invalidRequest('--max-memory applies to --input (a collection scan counts its index keys exactly)');
    if (format === 'lines' && values.field !== undefined)
      throw invalidRequest('--field applies to --format tsv, csv or ndjson');
    if (values.weight !== undefined && values.weight !== 'items' && values.weight !== 'load')
      throw invalidRequest(`--weight must be items or load, not ${values.weight}`);
    const byLoad = values.weight === 'load';
    if (byLoad && values.collection === undefined) throw invalidRequest('--weight load goes with --collection');
    if (values.minutes !== undefined && !byLoad) throw invalidRequest('--minutes goes with --weight load');
    const loadMinutes = whole('minutes', values.minutes ?? '10', 1440);
    const tolerance = values.tolerance === undefined ? DEFAULT_TOLERANCE : Number(values.tolerance);
    if (!(tolerance >= 0 && tolerance <= 1))
      throw invalidRequest(`--tolerance must be from 0 to 1, not ${values.tolerance}`);
    return {
      ...values,
      shards,
      format,
      normalization: values.normalization as Normalization,
      tolerance,
      column,
      /** Cut from a sketch within this budget (--max-memory). */
      maxMemoryMiB: maxMemory,
      /** --weight load: balance the fleet's recorded load over these minutes. */
      loadMinutes: byLoad ? loadMinutes : undefined,
    };
  });
}

/** A count from 1 to `max` (the value unquoted, unlike `numberArg`'s). */
function whole(flag: string, raw: string | undefined, max: number): number {
  const value = Number(raw);
  if (raw === undefined || !Number.isInteger(value) || value < 1 || value > max)
    throw invalidRequest(`--${flag} must be a whole number from 1 to ${max}${raw === undefined ? '' : `, not ${raw}`}`);
  return value;
}
