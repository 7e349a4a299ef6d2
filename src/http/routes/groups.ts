import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { startTime } from 'hono/timing';
import type { Shardline } from '../../service/shardline';
import { apiRoute } from '../api-route';
import type { AppEnv } from '../env';
import { CollectionParam, errorResponses, ListQuery } from '../schemas';
import { GroupLoadSchema, readGroupLoad } from './group-load';
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
    200: { content: { 'application/json': { schema: GroupShardsResponse } }, description: 'the group' },
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
    const recent = await readGroupLoad(shardline, shardline.collection(name), shards, c.get('call'));
    return c.json({ ...shards, load: recent }, 200, { 'cache-control': 'no-store' });
  });
}
