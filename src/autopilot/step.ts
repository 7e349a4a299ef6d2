import { cutBoundaries } from '../boundaries/cut-boundaries';
import type { AutopilotConfig, CollectionSpec, RoutedCollection } from '../core/collection';
import { orderOf, roundedBoundaries } from '../core/order';
import type { StrategyConfig } from '../core/strategies';
import type { FleetLoad } from '../load/fleet-load';
import { EMPTY_GROUP_MAP } from '../core/group-map';
import {
  exitCodeOf,
  finishedLine,
  openReshard,
  type ReshardRun,
  type ReshardTable,
  settleMsOf,
} from '../reshard/run-reshard';
import { scanCollectionKeys } from '../service/collection-keys';
import type { KeptDecision } from '../store/decision-log';
import { recordedLoad } from '../service/recorded-load';
import type { ShardMaps } from '../service/shard-maps';
import { type Decision, decide, type Target } from './decide';
import { decideGroups } from './decide-groups';
import { lastResizes, resizeGroups } from './group-step';
import { loadWeightedCounts } from './load-weights';
import { reshardStreak, streakAfterStep } from './rising-bar';
import { keptAfterResume, resumeReason, settled } from './step-log';

/** What a step works on, from a CLI's environment or a scheduled function's service alike. */
export interface AutopilotTable extends ReshardTable {
  /** A step reads the current map (`current`), whatever its TTL. */
  readonly maps: ShardMaps;
  readonly settings: ReshardTable['settings'] & { readonly loadMinuteMs: number };
}

export interface StepOptions {
  readonly dryRun: boolean;
  readonly now?: number;
  /** Stops a reshard under way at its next safe point (Lambda's time limit): the next step resumes it. */
  readonly stop?: AbortSignal;
  /** The reshard's own lines. */
  readonly log?: (line: string) => void;
}

/**
 * How a reshard the autopilot ran ended: `npm run reshard`'s exit code and its last line. The code is null in
 * the log while it runs: a step killed meanwhile leaves it so, and the step that resumes it writes 130.
 */
export type ReshardResult = NonNullable<KeptDecision['reshard']>;

/**
 * What one step saw, chose and did: the JSON log line, and the entry kept in the table; with the reshards in a row
 * after it, and since when its calm has lasted (rising-bar.ts).
 */
export interface StepRecord extends Decision, ReturnType<typeof streakAfterStep> {
  readonly collection: string;
  readonly at: string;
  readonly mapVersion: number;
  readonly shardCount: number;
  readonly routers: number;
  /** A dry run's decision is printed, never kept: the log holds what the autopilot did. */
  readonly dryRun: boolean;
  /** The reshard it ran: its exit code (0: done) and its last line (what it moved, or why it failed). */
  readonly reshard?: ReshardResult;
}

/**
 * One autopilot step for one collection (docs/autopilot.md): the window's load, the decision and, unless
 * `dryRun`, the reshard it calls for under the reshard's lease. Every step but a dry run is kept in the
 * decision log, a reshard's before it runs (so a killed step's is there too).
 */
export async function autopilotStep(
  table: AutopilotTable,
  collection: CollectionSpec,
  config: AutopilotConfig,
  options: StepOptions,
): Promise<StepRecord> {
  const now = options.now ?? Date.now();
  const minuteMs = table.settings.loadMinuteMs;
  const { read, pointer, target } = await table.maps.current(collection, {});
  const recorded = await recordedLoad(table.dynamo.loadStore(0), read, config.windowMinutes, {
    minuteMs,
    now: () => now,
  });
  const { window } = recorded;
  const minutes = recorded.perMinute();
  const log = table.dynamo.decisions;
  const say = options.log ?? (() => {});
  // A grouped collection's dry run reads it too: its groups' cooldowns are in it.
  const kept = options.dryRun && !collection.group ? [] : await log.read(collection);
  const streak = reshardStreak(kept);
  const { shardCount } = read.map.strategy;
  const load = { window, minutes, now, minuteMs };
  const decision = read.group
    ? decideGroups(
        {
          ...load,
          groups: read.groups ?? EMPTY_GROUP_MAP,
          defaultShards: shardCount,
          lastResizedAt: lastResizes(kept),
          settleMs: settleMsOf(table.settings),
        },
        config,
      )
    : decide(
        {
          ...load,
          strategy: read.map.strategy.kind,
          shardCount,
          resharding: pointer.phase !== 'stable',
          lastReshardAt: pointer.read.version > 1 ? pointer.changedAt : undefined,
          streak,
        },
        config,
      );
  const record: StepRecord = {
    ...decision,
    collection: collection.name,
    at: new Date(now).toISOString(),
    mapVersion: pointer.read.version,
    shardCount,
    routers: window.routers,
    dryRun: options.dryRun,
    ...streakAfterStep(kept, decision.calm === true, now, config.windowMinutes * minuteMs),
  };
  if (options.dryRun) return record;
  // A new reshard waits out another run's lease; resuming one leaves a live run alone.
  const run = (waitForLease: boolean): ReshardRun => ({
    segments: 8,
    rate: config.rate,
    waitForLease,
    log: say,
    stop: options.stop,
  });
  if (pointer.phase !== 'stable' && target) {
    // A reshard whose run died goes on here to its end; a live run holds its lease and is left be.
    const reshard = await reshardTo(table, collection, target.map.strategy.config, run(false));
    const resumed = { ...record, reason: resumeReason(reshard, pointer.target?.version), reshard };
    await log.change(collection, (kept) => keptAfterResume(kept, resumed));
    return resumed;
  }
  // A grouped collection's groups resize on their own: its map is never resharded.
  if (decision.groups) return resizeGroups(table, collection, read, record, log, say);
  if (decision.action !== 'reshard' || !decision.target) {
    await log.append(collection, { ...record });
    return record;
  }
  await log.append(collection, { ...record, streak: streak + 1, reshard: { code: null, last: 'running' } });
  const strategy = await targetStrategy(table, read, window, decision.target);
  const reshard = strategy
    ? await reshardTo(table, collection, strategy, run(true))
    : { code: 3, last: 'no items to cut boundaries from' };
  // Refused, it moved nothing: the streak stays.
  const done: StepRecord = { ...record, streak: reshard.code === 3 ? streak : streak + 1, reshard };
  await log.change(collection, (kept) => settled(kept, done));
  return done;
}

/** Runs (or resumes) the reshard of `collection` to `target`, to its end or to a safe point when `stop` fires. */
async function reshardTo(
  table: AutopilotTable,
  collection: CollectionSpec,
  target: StrategyConfig,
  run: ReshardRun,
): Promise<ReshardResult> {
  const started = Date.now();
  const reshard = openReshard(table, collection, run);
  try {
    const outcome = await reshard.run(target);
    return { code: 0, last: finishedLine(collection.name, outcome, (Date.now() - started) / 1000) };
  } catch (error) {
    const code = exitCodeOf(error);
    const message = (error as Error).message;
    return { code, last: code === 130 ? `${message}; the next step resumes it` : message };
  }
}

/** The map the decision asks for: more or fewer hash/random shards, or boundaries cut by load. */
async function targetStrategy(
  table: AutopilotTable,
  read: RoutedCollection,
  window: FleetLoad,
  target: Target,
): Promise<StrategyConfig | undefined> {
  if (target.kind !== 'range') return { kind: target.kind, shards: target.shards };
  // Boundaries that even the observed load over the live keys (the read map's index).
  const scan = await scanCollectionKeys((request, context) => table.dynamo.items.scanPage(request, context), read);
  if (scan.entries === 0) return undefined;
  const weighted = loadWeightedCounts(scan.counts, read.map.strategy, window);
  const { boundaries } = cutBoundaries(weighted, { shards: target.shards });
  // Cut on whole fields for a typed order, as `npm run boundaries` and `npm run reshard` cut.
  return { kind: 'range', boundaries: roundedBoundaries(orderOf(read), boundaries, weighted.values) };
}
