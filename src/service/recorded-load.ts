import type { CollectionSpec, RoutedCollection } from '../core/collection';
import { fleetLoad, type FleetLoad, loadShardCount } from '../load/fleet-load';
import type { LoadRecord } from '../load/load-record';
import type { CallContext } from '../store/retry';

/** Where the routers' minute records are read from (store/load-store.ts). */
export interface LoadRecords {
  read(collection: CollectionSpec, minuteStarts: readonly number[], context: CallContext): Promise<LoadRecord[]>;
}

/** How the routers count minutes, and the time the window ends by (the recorders' clock). */
export interface LoadClock {
  readonly minuteMs: number;
  readonly now?: () => number;
}

/** The fleet's load over a window: the whole of it, and each of its minutes alone (oldest first). */
export interface RecordedLoad {
  readonly window: FleetLoad;
  perMinute(): FleetLoad[];
}

/**
 * The fleet's recorded load on a collection's map over the `minutes` that ended before the clock's
 * now: only ended minutes have records, so the window ends where the minute under way began. The one
 * reading of the records, for `/load`, a group's page and the autopilot alike.
 */
export async function recordedLoad(
  records: LoadRecords,
  read: RoutedCollection,
  minutes: number,
  clock: LoadClock,
  context: CallContext = {},
): Promise<RecordedLoad> {
  const { minuteMs } = clock;
  const now = (clock.now ?? Date.now)();
  const end = now - (now % minuteMs);
  const starts = Array.from({ length: minutes }, (_, i) => end - (minutes - i) * minuteMs);
  const found = await records.read(read, starts, context);
  const shape = { collection: read.name, mapVersion: read.map.version, shardCount: loadShardCount(read), minuteMs };
  return {
    window: fleetLoad(found, { ...shape, now: end, minutes }),
    perMinute: () => starts.map((start) => fleetLoad(found, { ...shape, now: start + minuteMs, minutes: 1 })),
  };
}
