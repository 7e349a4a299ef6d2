import { invalidRequest } from '../core/errors';
import { inWords, sortedStrategyNames, strategyNames, type StrategyKind } from '../core/strategies';
import { numberArg, readCommandLine } from './command-line';

export const USAGE = `Usage: npm run reshard -- --collection NAME <what> [options]

Changes a collection's shard map online: every listing stays exact and no write
waits. Same environment as the server (SHARDLINE_CONFIG, TABLE_NAME,
DYNAMODB_ENDPOINT, AWS_REGION; the embedded engine's ./data when neither of the
last two is set). Run with the routers' SHARDLINE_MAP_TTL_MS and REQUEST_TIMEOUT_MS:
each phase starts only when every router must have seen the last.

What (one of):
  --boundaries FILE      a range map with these boundaries (npm run boundaries)
  --shards N             N shards: of the current strategy, or of --strategy
    --group G            of one group of a grouped collection (docs/groups.md):
                         growing moves no item; shrinking moves the dropped shards' items
    --strategy S         ${inWords(sortedStrategyNames())} (range: boundaries cut from a live
                         scan of the collection's keys)
  --status               where the collection's map is (--json: as JSON)
  --abort                abandon the reshard under way (before reads switched)
  --rollback             move reads back and abandon it (before finalize)
  --adopt                index the items the config's "members" rule matches
  --verify               check every item's index entry against its ordered fields
  --repair               ... and rewrite those that disagree (rate-limited, resumable)
Options:
  --rate N               scan at most N items a second (default: no limit)
  --segments N           parallel scan segments (default 8)
  --yes                  do not ask before starting
  --no-wait              refuse at once while another run's lease lasts, instead
                         of waiting to see whether that run is alive
  --quiet                no progress bar
  --json                 with --status: the pointer and maps as JSON
  --help

Running the same command again after a crash resumes where it stopped (once the
crashed run's lease expires: up to 30 s, counted down).`;

export type Action =
  | { readonly kind: 'reshard'; readonly boundaries: string }
  | { readonly kind: 'reshard'; readonly shards: number; readonly strategy?: StrategyKind }
  | { readonly kind: 'group'; readonly group: string; readonly shards: number }
  | { readonly kind: 'status'; readonly json: boolean }
  | { readonly kind: 'abort' | 'rollback' | 'adopt' | 'verify' | 'repair' };

export type ReshardOptions = Exclude<ReturnType<typeof parseReshardOptions>, 'help'>;

const OTHER_ACTIONS = ['abort', 'rollback', 'adopt', 'verify', 'repair'] as const;

const SPEC = {
  options: {
    collection: { type: 'string' },
    group: { type: 'string' },
    boundaries: { type: 'string' },
    shards: { type: 'string' },
    strategy: { type: 'string' },
    status: { type: 'boolean', default: false },
    abort: { type: 'boolean', default: false },
    rollback: { type: 'boolean', default: false },
    adopt: { type: 'boolean', default: false },
    verify: { type: 'boolean', default: false },
    repair: { type: 'boolean', default: false },
    rate: { type: 'string' },
    segments: { type: 'string' },
    yes: { type: 'boolean', default: false },
    'no-wait': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
} as const;

export function parseReshardOptions(argv: string[]) {
  return readCommandLine(SPEC, argv, ({ values }) => {
    if (!values.collection) throw invalidRequest('--collection NAME is required');
    const others = OTHER_ACTIONS.filter((kind) => values[kind]);
    const chosen = [values.boundaries !== undefined, values.shards !== undefined, values.status].filter(Boolean);
    if (chosen.length + others.length !== 1) {
      throw invalidRequest(
        'say exactly one of --boundaries, --shards, --status, --abort, --rollback, --adopt, --verify, --repair',
      );
    }
    if (values.strategy !== undefined && values.shards === undefined)
      throw invalidRequest('--strategy goes with --shards');
    if (values.json && !values.status) throw invalidRequest('--json goes with --status');
    const strategy = values.strategy;
    if (strategy !== undefined && !strategyNames().includes(strategy)) {
      throw invalidRequest(`--strategy must be ${inWords(sortedStrategyNames())}, not ${JSON.stringify(strategy)}`);
    }
    if (values.group !== undefined && (values.shards === undefined || values.strategy !== undefined)) {
      throw invalidRequest('--group goes with --shards N alone (a group grows and shrinks by random suffixes)');
    }
    const action: Action =
      values.group !== undefined
        ? { kind: 'group', group: values.group, shards: whole('shards', values.shards!, 10_000) }
        : values.boundaries !== undefined
          ? { kind: 'reshard', boundaries: values.boundaries }
          : values.shards !== undefined
            ? { kind: 'reshard', shards: whole('shards', values.shards, 10_000), ...(strategy && { strategy }) }
            : values.status
              ? { kind: 'status', json: values.json }
              : { kind: others[0]! };
    return {
      collection: values.collection,
      action,
      ...(values.rate !== undefined && { rate: whole('rate', values.rate, 10_000_000) }),
      segments: values.segments === undefined ? 8 : whole('segments', values.segments, 1_000),
      yes: values.yes,
      quiet: values.quiet,
      // Wait out another run's lease (default) rather than refuse.
      wait: !values['no-wait'],
    };
  });
}

/** A count from 1 to `max`, as every number npm run reshard takes is. */
function whole(flag: string, raw: string, max: number): number {
  return numberArg(flag, raw, { min: 1, max, integer: true });
}
