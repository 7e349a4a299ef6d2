import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { apiRoute } from '../api-route';
import { type CollectionOrder, orderOf, readableValues } from '../../core/order';
import type { AppEnv } from '../env';
import { CollectionParam, collectionPathResponses, errorResponses, jsonContent } from '../schemas';
import type { Shardline } from '../../service/shardline';

const HotKey = z.object({
  key: z.string(),
  count: z.number(),
  error: z.number(),
  values: z.array(z.union([z.string(), z.number()])).optional(),
});
const Hot = z.object({ keys: z.array(HotKey), errorBound: z.number(), total: z.number() });

const FleetLoadResponse = z
  .object({
    collection: z.string(),
    mapVersion: z.number().int(),
    shardCount: z.number().int().openapi({
      description:
        "the read map's shards; 1 for a grouped collection (its figures are the whole collection's, in shard 0)",
    }),
    windowSeconds: z.number(),
    routers: z.number().int().openapi({ description: 'routers that reported in the window' }),
    records: z.number().int(),
    shards: z.array(
      z.object({
        shard: z.number().int(),
        writesPerSecond: z.number(),
        writeUnitsPerSecond: z.number(),
        itemsReadPerSecond: z.number(),
        readUnitsPerSecond: z.number(),
        queriesPerSecond: z.number(),
        throttles: z.number(),
        partitionShare: z
          .number()
          .openapi({ description: 'max(WCU ÷ 1,000, RCU ÷ 3,000): 1 is a partition at its limit' }),
      }),
    ),
    imbalance: z.number().nullable().openapi({ description: 'largest ÷ mean partition share' }),
    hotWrites: Hot,
    hotReads: Hot,
    hotGroups: Hot.optional().openapi({
      description:
        "a grouped collection's groups written most, by write units (each key a group; its figures are in shard 0)",
    }),
  })
  .openapi('FleetLoad');

const loadRoute = apiRoute({
  method: 'get',
  path: '/collections/{collection}/load',
  operationId: 'getFleetLoad',
  summary: "The whole fleet's load on a collection over the last minutes",
  description:
    "Every router's minute records (SHARDLINE_LOAD_RECORDS) merged: per-shard rates, each shard's share of a " +
    "partition's limits, imbalance and the fleet's hot keys with error bounds, for the current read map.",
  tags: ['observability'],
  request: {
    params: CollectionParam,
    query: z.object({
      minutes: z
        .string()
        .regex(/^\d{1,4}$/, 'minutes must be a whole number from 1 to 1440')
        .transform(Number)
        .pipe(z.number().int().min(1).max(1440))
        .optional()
        .openapi({ type: 'integer', minimum: 1, maximum: 1440, default: 10, description: 'ended minutes to merge' }),
    }),
  },
  responses: {
    200: jsonContent(FleetLoadResponse, 'the fleet load'),
    ...collectionPathResponses,
    503: errorResponses[503],
  },
});

/** GET /collections/{c}/load where the router keeps load records. */
export function registerLoadRoute(app: OpenAPIHono<AppEnv>, shardline: Shardline): void {
  app.openapi(loadRoute, async (c) => {
    const minutes = c.req.valid('query').minutes ?? 10;
    const { read, load: merged } = await shardline.fleetLoad(c.req.valid('param').collection, minutes, c.get('call'));
    const order = orderOf(read);
    const { writeSamples: _, groups, ...figures } = merged;
    const body = {
      ...figures,
      shardCount: merged.shards.length,
      ...(groups && { hotGroups: groups.writeUnits }),
      hotWrites: { ...merged.hotWrites, keys: readableHotKeys(order, merged.hotWrites.keys) },
      hotReads: { ...merged.hotReads, keys: readableHotKeys(order, merged.hotReads.keys) },
    };
    return c.json(body, 200, { 'cache-control': 'no-store' });
  });
}

/** Typed keys are encoded tuples: each hot key carries its field values beside it. */
export function readableHotKeys<K extends { readonly key: string }>(order: CollectionOrder, keys: readonly K[]) {
  return keys.map((hot) => {
    const values = readableValues(order, hot.key);
    return values ? { ...hot, values } : hot;
  });
}
