import { z } from '@hono/zod-openapi';
import type { CollectionSpec } from '../../core/collection';
import { groupRate } from '../../load/group-sketch';
import { PARTITION_WCU } from '../../load/load-record';
import type { Shardline } from '../../service/shardline';
import type { RequestContext } from '../../service/metrics/request-tally';

/** Minutes a group's load is read over: the collection's autopilot window, else /load's default. */
const DEFAULT_WINDOW_MINUTES = 10;

export const GroupLoadSchema = z
  .object({
    windowSeconds: z.number().openapi({ description: "the ended minutes merged: the autopilot's window, else 10" }),
    routers: z.number().int().openapi({ description: 'routers that reported in the window' }),
    writesPerSecond: z.number().openapi({ description: 'at most (the merged sketches of the groups written)' }),
    writeUnitsPerSecond: z
      .number()
      .openapi({ description: 'at most; the true rate is at least writeUnitsPerSecondAtLeast' }),
    writeUnitsPerSecondAtLeast: z.number().openapi({ description: 'write units a second the group had at least' }),
    partitionShare: z.number().openapi({
      description: "each write shard's share of a partition's write limit (1,000 WCU), at most",
    }),
  })
  .openapi('GroupLoad');

type GroupLoad = z.infer<typeof GroupLoadSchema>;

/**
 * One group's write load over the last window, from every router's load records (the group sketches
 * fleet-load.ts merges): its rates are bounds, since a sketch counts the groups written most.
 */
export async function readGroupLoad(
  shardline: Shardline,
  collection: CollectionSpec,
  group: { readonly group: string; readonly writeShards: number },
  context: RequestContext,
): Promise<GroupLoad> {
  const minutes = collection.autopilot?.windowMinutes ?? DEFAULT_WINDOW_MINUTES;
  const { load: merged } = await shardline.fleetLoad(collection.name, minutes, context);
  const seconds = merged.windowSeconds;
  const units = merged.groups ? groupRate(merged.groups.writeUnits, group.group, seconds) : undefined;
  const writes = merged.groups ? groupRate(merged.groups.writes, group.group, seconds) : undefined;
  return {
    windowSeconds: seconds,
    routers: merged.routers,
    writesPerSecond: writes?.atMost ?? 0,
    writeUnitsPerSecond: units?.atMost ?? 0,
    writeUnitsPerSecondAtLeast: units?.atLeast ?? 0,
    partitionShare: (units?.atMost ?? 0) / group.writeShards / PARTITION_WCU,
  };
}
