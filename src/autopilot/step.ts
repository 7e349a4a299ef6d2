import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cutBoundaries } from '../boundaries/cut-boundaries';
import { boundaryTuples } from '../config/typed-boundaries';
import type { Collection } from '../core/collection';
import { orderOf, readableBoundaries } from '../core/order';
import type { FleetLoad } from '../load/fleet-load';
import type { OpenEnvironment } from '../runtime/open-environment';
import { scanCollectionKeys } from '../service/collection-keys';
import { ShardMaps } from '../service/shard-maps';
import { DecisionLog } from '../store/decision-log';
import type { AutopilotConfig } from './autopilot-config';
import { type Decision, decide, type Target } from './decide';
import { loadWeightedCounts } from './load-weights';
import { recordedLoad } from './recorded-load';

export interface StepOptions {
  readonly dryRun: boolean;
  readonly now?: number;
  /** Runs `npm run reshard` with these arguments (the CLI in this process); its exit code and output. */
  readonly reshard: (args: string[]) => Promise<{ code: number; output: string }>;
}

/** What one step saw, chose and did: the JSON log line, and the entry kept in the table. */
export interface StepRecord extends Decision {
  readonly collection: string;
  readonly at: string;
  readonly mapVersion: number;
  readonly shardCount: number;
  readonly routers: number;
  readonly dryRun: boolean;
  /** The reshard it ran: its exit code (0: done) and its last line (what it moved, or why it failed). */
  readonly reshard?: { readonly code: number; readonly last: string };
}

/**
 * One autopilot step for one collection (DESIGN §12): the fleet's load over the last
 * window, the decision, and — unless `dryRun` — the reshard it calls for, run to its end
 * by the same code as `npm run reshard` (its lease keeps two steps from racing; killed, it
 * resumes at the next step). Every step is kept in the table's decision log.
 */
export async function autopilotStep(
  opened: OpenEnvironment,
  collection: Collection,
  config: AutopilotConfig,
  options: StepOptions,
): Promise<StepRecord> {
  const now = options.now ?? Date.now();
  const maps = new ShardMaps(opened.maps, [collection], { ttlMs: 0 });
  const { read, pointer, target } = await maps.snapshot(collection, {});
  const { window, minutes } = await recordedLoad(opened, read, pointer.read.version, config.windowMinutes, now);
  const decision = decide(
    {
      strategy: read.strategy.kind as 'range' | 'hash' | 'random',
      shardCount: read.strategy.shardCount,
      window,
      minutes,
      resharding: pointer.phase !== 'stable',
      lastReshardAt: pointer.read.version > 1 ? pointer.changedAt : undefined,
      now,
    },
    config,
  );
  let reshard: StepRecord['reshard'];
  let reason = decision.reason;
  if (pointer.phase !== 'stable' && target && !options.dryRun) {
    // A reshard whose run died (a killed process, Lambda's time limit) goes on here to its
    // end; one whose run is alive holds its lease, and --no-wait leaves it be.
    reshard = summary(await resume(target, config, options));
    reason =
      reshard.code === 0
        ? `resumed the reshard to v${pointer.target?.version} and finished it`
        : 'a reshard is running (its run holds the lease)';
  } else if (decision.action === 'reshard' && decision.target && !options.dryRun) {
    reshard = summary(await runReshard(opened, read, window, decision.target, config, options));
  }
  const record: StepRecord = {
    ...decision,
    reason,
    collection: collection.name,
    at: new Date(now).toISOString(),
    mapVersion: pointer.read.version,
    shardCount: read.strategy.shardCount,
    routers: window.routers,
    dryRun: options.dryRun,
    ...(reshard && { reshard }),
  };
  await new DecisionLog(opened.clients.doc).append(collection, { ...record });
  return record;
}

function summary(ran: { code: number; output: string }): NonNullable<StepRecord['reshard']> {
  return { code: ran.code, last: ran.output.trim().split('\n').at(-1) ?? '' };
}

/** `npm run reshard` to the map being built: the same command resumes it. */
async function resume(
  target: Collection,
  config: AutopilotConfig,
  options: StepOptions,
): Promise<{ code: number; output: string }> {
  const common = ['--collection', target.name, '--rate', String(config.rate), '--yes', '--quiet', '--no-wait'];
  const { boundaries } = target.strategy;
  if (!boundaries) {
    return options.reshard([
      ...common,
      '--strategy',
      target.strategy.kind,
      '--shards',
      String(target.strategy.shardCount),
    ]);
  }
  // The stored boundaries as a boundaries file writes them: tuples for a typed order.
  return withBoundariesFile(target.name, readableBoundaries(orderOf(target), boundaries) ?? boundaries, (file) =>
    options.reshard([...common, '--boundaries', file]),
  );
}

async function withBoundariesFile<T>(
  name: string,
  boundaries: readonly unknown[],
  use: (file: string) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'shardline-autopilot-'));
  try {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ boundaries, collection: name, generator: 'npm run autopilot' }));
    return await use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runReshard(
  opened: OpenEnvironment,
  read: Collection,
  window: FleetLoad,
  target: Target,
  config: AutopilotConfig,
  options: StepOptions,
): Promise<{ code: number; output: string }> {
  const common = ['--collection', read.name, '--rate', String(config.rate), '--yes', '--quiet'];
  if (target.kind !== 'range') {
    return options.reshard([...common, '--strategy', target.kind, '--shards', String(target.shards)]);
  }
  // Boundaries that even the observed load over the live keys (the read map's index).
  const scan = await scanCollectionKeys((request, context) => opened.store.scanPage(request, context), read);
  if (scan.entries === 0) return { code: 3, output: 'no items to cut boundaries from' };
  const weighted = loadWeightedCounts(scan.counts, read.strategy, window);
  const { boundaries } = cutBoundaries(weighted, { shards: target.shards });
  const order = orderOf(read);
  // Cut on whole fields for a typed order, written as tuples, as `npm run boundaries` writes them.
  const cut = boundaryTuples(order, boundaries, weighted.values);
  return withBoundariesFile(read.name, cut, (file) => options.reshard([...common, '--boundaries', file]));
}
