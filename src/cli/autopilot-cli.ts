import { DEFAULT_AUTOPILOT } from '../config/autopilot-config';
import { autopilotStep } from '../autopilot/step';
import type { CollectionSpec } from '../core/collection';
import { invalidRequest } from '../core/errors';
import { openEnvironment, type OpenEnvironment } from '../runtime/open-environment';
import type { KeptDecision } from '../store/decision-log';
import { sleep } from '../store/retry';
import { readCommandLine, readOptions, type ScriptIO } from './command-line';

export const USAGE = `Usage: npm run autopilot -- [--collection NAME] [--once] [--dry-run]
       npm run autopilot -- --status [--collection NAME] [--json]

Reshards the collections whose config has "autopilot" by the fleet's load, or resizes the hot
and cold groups of a grouped one (docs/autopilot.md): a step every minute
(SHARDLINE_LOAD_MINUTE_MS), each decision a JSON line on stdout.

  --collection NAME   only this collection (it must have "autopilot" in the config)
  --once              one step per collection, then exit
  --dry-run           decide and print, never reshard (nothing kept in the table)
  --status            the last decisions kept in the table (--json: as JSON)
  --help`;

const SPEC = {
  options: {
    collection: { type: 'string' },
    once: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    status: { type: 'boolean' },
    json: { type: 'boolean' },
  },
} as const;

export interface AutopilotIO extends ScriptIO {
  /** Aborted on SIGINT/SIGTERM: the loop ends after the step under way. */
  readonly stop?: AbortSignal;
}

/** `npm run autopilot`: exit 0, 2 on a usage mistake, 1 when a step failed. */
export async function autopilotCli(argv: string[], io: AutopilotIO): Promise<number> {
  const values = readOptions('autopilot', USAGE, io, () =>
    readCommandLine(SPEC, argv, ({ values }) => {
      if (values.json && !values.status) throw invalidRequest('--json goes with --status');
      return values;
    }),
  );
  if (typeof values === 'number') return values;
  let opened: OpenEnvironment | undefined;
  try {
    // A config's problems, one line each, or an unreachable table: said in a line, not a stack trace.
    opened = await openEnvironment(io.env);
    const chosen = chooseCollections(opened.collections, values.collection, Boolean(values.status));
    if (typeof chosen === 'string') {
      io.stderr(`autopilot: ${chosen}\n`);
      return 2;
    }
    if (values.status) return await status(opened, chosen, Boolean(values.json), io);
    await steps(opened, chosen, { once: Boolean(values.once), dryRun: Boolean(values['dry-run']) }, io);
    return 0;
  } catch (error) {
    io.stderr(`autopilot: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await opened?.close();
  }
}

async function steps(
  opened: OpenEnvironment,
  chosen: readonly CollectionSpec[],
  how: { once: boolean; dryRun: boolean },
  io: AutopilotIO,
): Promise<void> {
  do {
    for (const collection of chosen) {
      const record = await autopilotStep(opened, collection, collection.autopilot ?? DEFAULT_AUTOPILOT, {
        dryRun: how.dryRun,
        log: (line) => io.stderr(`autopilot: ${collection.name}: ${line}\n`),
        ...(io.stop && { stop: io.stop }),
      });
      io.stdout(`${JSON.stringify({ msg: 'shardline.autopilot', ...record })}\n`);
    }
    if (how.once) break;
    await sleep(opened.settings.loadMinuteMs, io.stop);
  } while (!io.stop?.aborted);
}

function chooseCollections(all: readonly CollectionSpec[], name: string | undefined, anyForStatus: boolean) {
  if (name !== undefined) {
    const collection = all.find((c) => c.name === name);
    if (!collection) return `no collection "${name}" in the config`;
    if (!collection.autopilot && !anyForStatus) {
      return `"${name}" has no "autopilot" in the config: add "autopilot": {} to let it reshard itself`;
    }
    return [collection];
  }
  const opted = all.filter((c) => c.autopilot);
  return opted.length > 0 ? opted : 'no collection has "autopilot" in the config';
}

async function status(opened: OpenEnvironment, collections: readonly CollectionSpec[], json: boolean, io: AutopilotIO) {
  const log = opened.dynamo.decisions;
  const kept = await Promise.all(collections.map(async (c) => ({ collection: c.name, decisions: await log.read(c) })));
  if (json) {
    io.stdout(`${JSON.stringify(kept, null, 2)}\n`);
    return 0;
  }
  for (const { collection, decisions } of kept) {
    io.stdout(`${collection}: ${decisions.length} decisions kept\n`);
    for (const d of decisions) io.stdout(`  ${statusLine(d)}\n`);
  }
  return 0;
}

/** One kept decision as `--status` shows it: when, the map, what, why, and what its reshard did. */
function statusLine(d: KeptDecision): string {
  const predicted = d.predictedImbalance === undefined ? '' : ` → ${d.predictedImbalance.toFixed(2)} predicted`;
  const imbalance = d.imbalance === null ? '-' : d.imbalance.toFixed(2);
  const action = `${d.dryRun ? 'dry-run ' : ''}${d.action}`;
  const ran = d.reshard
    ? d.reshard.code === null
      ? ' (reshard running, or its step was killed: the next step goes on with it)'
      : ` (reshard exit ${d.reshard.code})`
    : '';
  const repeated = d.repeats ? ` (×${d.repeats}, last ${d.lastAt})` : '';
  const resized = d.groups?.filter((change) => change.action !== 'hold') ?? [];
  const finished = resized.filter((change) => change.done === true).length;
  const groups = resized.length > 0 ? ` (${finished} of ${resized.length} group resizes finished)` : '';
  const what = `v${d.mapVersion} ${action.padEnd(7)} imbalance ${imbalance}${predicted}`;
  return `${d.at}  ${what}  ${d.reason}${ran}${repeated}${groups}`;
}
