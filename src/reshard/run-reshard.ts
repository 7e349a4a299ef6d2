import type { CollectionSpec, RoutedCollection } from '../core/collection';
import { hasCode } from '../core/errors';
import { STALE_AFTER_TTLS } from '../service/shard-maps';
import type { DynamoTable } from '../store/table';
import type { GroupResizeDeps } from './group-resize';
import { Reshard } from './orchestrator';
import type { ReshardDeps, ReshardOutcome } from './steps';
import { formatCount } from '../core/count-text';

/** What a reshard runs against, opened by whoever runs it (a CLI, the autopilot, a scheduled function). */
export interface ReshardTable {
  readonly dynamo: DynamoTable;
  /** The routers' timing (SHARDLINE_MAP_TTL_MS, REQUEST_TIMEOUT_MS); the run's lease (SHARDLINE_RESHARD_LEASE_MS). */
  readonly settings: { readonly mapTtlMs: number; readonly requestTimeoutMs: number; readonly reshardLeaseMs: number };
}

export type ReshardRun = Pick<ReshardDeps, 'waitForLease' | 'stop' | 'rate' | 'log' | 'onProgress'> & {
  readonly segments: number;
};

export function openReshard(table: ReshardTable, collection: CollectionSpec, run: ReshardRun): Reshard {
  return new Reshard({
    ...run,
    mapStore: table.dynamo.mapStore,
    writer: table.dynamo.items,
    scanPage: (request, context) => table.dynamo.items.scanPage(request, context),
    ensureIndex: (index) => table.dynamo.ensureIndex(collection, index, run.log),
    collection,
    settleMs: settleMsOf(table.settings),
    groupMapTtlMs: table.settings.mapTtlMs,
    leaseMs: table.settings.reshardLeaseMs,
    scan: { segments: run.segments, concurrency: Math.min(run.segments, 4), pageSize: 500 },
  });
}

/** What a group's resize runs against, for `npm run reshard -- --group` and the autopilot alike. */
export function groupResizeDeps(
  table: ReshardTable,
  read: RoutedCollection,
  log: (line: string) => void,
): GroupResizeDeps {
  const { items, mapStore } = table.dynamo;
  return {
    mapStore,
    queryShard: (query, context) => items.queryShard(query, context),
    updateAttributes: (update, context) => items.updateAttributes(update, context),
    collection: read,
    settleMs: settleMsOf(table.settings),
    log,
  };
}

/** How long after a map change every router has seen it: maps STALE_AFTER_TTLS old, and a request's deadline. */
export function settleMsOf(settings: { readonly mapTtlMs: number; readonly requestTimeoutMs: number }): number {
  return STALE_AFTER_TTLS * settings.mapTtlMs + settings.requestTimeoutMs + 1000;
}

/** The line a finished reshard ends on, for people and for the autopilot's decision log alike. */
export function finishedLine(collection: string, outcome: ReshardOutcome, seconds: number): string {
  return (
    `${collection}: stable on v${outcome.pointer.read.version}; ${formatCount(outcome.moved)} ` +
    `entries written or removed in ${seconds.toFixed(1)} s` +
    (outcome.writeUnits > 0 ? `, ${outcome.writeUnits.toFixed(0)} write units` : '')
  );
}

/** `npm run reshard`'s exit code: 130 stopped at a safe point, 3 refused with nothing changed, 1 failed. */
export function exitCodeOf(error: unknown): 130 | 3 | 1 {
  if (hasCode(error, 'stopped')) return 130;
  return hasCode(error, 'refused') ? 3 : 1;
}
