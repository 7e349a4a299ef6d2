import type { RoutedCollection } from '../core/collection';
import { fleetLoad, type FleetLoad, loadShardCount } from '../load/fleet-load';
import type { DynamoClients } from '../store/client';
import { LoadStore } from '../store/load-store';

/**
 * The fleet's recorded load on a collection's map over the `minutes` that ended before
 * `now`: the window as a whole, and each minute alone (oldest first).
 */
export async function recordedLoad(
  opened: { readonly settings: { readonly loadMinuteMs: number }; readonly clients: DynamoClients },
  read: RoutedCollection,
  minutes: number,
  now: number,
): Promise<{ window: FleetLoad; minutes: FleetLoad[] }> {
  const minuteMs = opened.settings.loadMinuteMs;
  const end = now - (now % minuteMs);
  const starts = Array.from({ length: minutes }, (_, i) => end - (minutes - i) * minuteMs);
  const records = await new LoadStore(opened.clients.doc, 0).read(read, starts);
  const shape = {
    collection: read.name,
    mapVersion: read.map.version,
    shardCount: loadShardCount(read),
    minuteMs,
  };
  return {
    window: fleetLoad(records, { ...shape, now: end, minutes }),
    minutes: starts.map((start) => fleetLoad(records, { ...shape, now: start + minuteMs, minutes: 1 })),
  };
}
