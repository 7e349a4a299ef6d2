import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { startTime } from 'hono/timing';
import type { CollectionSpec } from '../../core/collection';
import type { HotKeys } from '../../load/fleet-load';
import { groupRate } from '../../load/group-sketch';
import { PARTITION_WCU } from '../../load/load-record';
import type { RequestContext } from '../../service/metrics/request-tally';
import type { Shardline } from '../../service/shardline';
import { apiRoute } from '../api-route';
import type { AppEnv } from '../env';
import { CollectionParam, errorResponses, jsonContent, ListQuery } from '../schemas';
import { PAGE_ROUTE, pageRequest, pageResponse } from './listing';

const GroupParams = CollectionParam.extend({
  group: z
    .string()
    .openapi({ param: { name: 'group', in: 'path' }, example: 'c123', description: "the group field's value" }),
});

const groupListingRoute = apiRoute({
  ...PAGE_ROUTE,
  method: 'get',
  path: '/collections/{collection}/groups/{group}/items',
  operationId: 'listGroupItems',
  summary: "One group's sorted listing, page by page (a grouped collection)",
  description:
    "A grouped collection's items of one group, in the collection's order: one Query for a group on one " +
    'shard, its shards merged for a grown one. Filters, order, cursor and fields as in the listing.',
  request: { params: GroupParams, query: ListQuery },
});

/** Minutes a group's load is read over: the collection's autopilot window, else /load's default. */
const DEFAULT_WINDOW_MINUTES = 10;

const GroupLoadSchema = z
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

/**
 * One group's write load over the last window, from the group sketches of every router's load records: its rates
 * are bounds, since a sketch counts the groups written most.
 */
async function readGroupLoad(
  shardline: Shardline,
  collection: CollectionSpec,
  group: { readonly group: string; readonly writeShards: number },
  context: RequestContext,
) {
  const minutes = collection.autopilot?.windowMinutes ?? DEFAULT_WINDOW_MINUTES;
  const { load } = await shardline.fleetLoad(collection.name, minutes, context);
  const rate = (hot?: HotKeys) => (hot ? groupRate(hot, group.group, load.windowSeconds) : { atMost: 0, atLeast: 0 });
  const units = rate(load.groups?.writeUnits);
  return {
    windowSeconds: load.windowSeconds,
    routers: load.routers,
    writesPerSecond: rate(load.groups?.writes).atMost,
    writeUnitsPerSecond: units.atMost,
    writeUnitsPerSecondAtLeast: units.atLeast,
    partitionShare: units.atMost / group.writeShards / PARTITION_WCU,
  };
}

const GroupShardsResponse = z
  .object({
    group: z.string().openapi({ description: 'the group as its shard keys spell it (a number canonical)' }),
    shards: z.number().int().openapi({ description: 'shards listings read' }),
    writeShards: z.number().int().openapi({ description: 'shards new writes go to (fewer while a change settles)' }),
    phase: z.enum(['stable', 'growing', 'shrinking']),
    changedAt: z.number().openapi({ description: 'epoch ms of the last change (0: never changed)' }),
    settleMs: z.number().openapi({ description: 'how long after a change every router has seen it' }),
    revision: z.number().int().openapi({ description: "the collection's group map revision routed by" }),
    load: GroupLoadSchema.optional().openapi({
      description: "the group's writes over the last window, where the routers keep load records",
    }),
  })
  .openapi('GroupShards');

const groupRoute = apiRoute({
  method: 'get',
  path: '/collections/{collection}/groups/{group}',
  operationId: 'getGroup',
  summary: "A group's shards and phase",
  tags: ['collections'],
  description:
    'How many shards the group is listed from and written to, as this router routes by them now: a group ' +
    "not in the group map is on the collection's default (one shard unless configured). Where the routers " +
    "keep load records, the group's write load over the last window (the collection's autopilot window, " +
    'else 10 minutes), the figures the autopilot grows and shrinks groups by.',
  request: { params: GroupParams },
  responses: {
    200: jsonContent(GroupShardsResponse, 'the group'),
    ...errorResponses,
  },
});

/** The grouped collections' routes: a group's listing and its shards (docs/groups.md). */
export function registerGroupRoutes(app: OpenAPIHono<AppEnv>, shardline: Shardline): void {
  app.openapi(groupListingRoute, async (c) => {
    startTime(c, 'total');
    const { collection: name, group } = c.req.valid('param');
    const collection = shardline.collection(name);
    const request = pageRequest(c.req.valid('query'));
    const page = await shardline.listGroup(collection.name, group, request, c.get('call'));
    return pageResponse(c, collection, page, request.fields);
  });
  app.openapi(groupRoute, async (c) => {
    const { collection: name, group } = c.req.valid('param');
    const shards = await shardline.group(name, group, c.get('call'));
    if (!shardline.recordsLoad) return c.json(shards, 200);
    const load = await readGroupLoad(shardline, shardline.collection(name), shards, c.get('call'));
    return c.json({ ...shards, load }, 200, { 'cache-control': 'no-store' });
  });
}
