import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { apiRoute } from '../api-route';
import { endTime, setMetric, startTime, timing } from 'hono/timing';
import { decodeCursor, encodeCursor } from '../../core/cursor';
import { orderOf } from '../../core/order';
import { listingFilter } from '../../core/order-filter';
import type { SortOrder } from '../../core/plan';
import { listItems } from '../../service/list-items';
import { projectionFor } from '../../service/read-item';
import { parseFields } from '../item-headers';
import { exactJson } from '../lossless-json';
import { ReadMemories } from '../../service/shard-tails';
import type { AppDeps, AppEnv } from '../env';
import { CollectionParam, errorResponses, ListQuery, ListResponse } from '../schemas';
import { collectionLookup } from './collections';
import { hiddenAttributes, publicWireItem } from './public-item';

const DEFAULT_LIMIT = 100;

const listingRoute = apiRoute({
  method: 'get',
  path: '/collections/{collection}/items',
  operationId: 'listItems',
  summary: 'A globally sorted listing, page by page',
  tags: ['listing'],
  description:
    'Items in code point (UTF-8 byte) order of the normalized value, ties by primary key. ' +
    'At most one filter: key, prefix, or from/to. Follow nextCursor until it is null.',
  // Only a page answered carries Server-Timing: an error names no DynamoDB time worth reading.
  middleware: timing({ total: false, enabled: (c) => c.res.ok }),
  request: { params: CollectionParam, query: ListQuery },
  responses: {
    200: {
      content: { 'application/json': { schema: ListResponse } },
      description: 'one page',
      headers: z.object({
        'x-shard-queries': z.string().openapi({ description: 'DynamoDB queries this page took' }),
        'x-round-trips': z
          .string()
          .openapi({ description: 'Waves of DynamoDB queries this page waited for one after another' }),
        'x-items-read': z.string().openapi({ description: 'items DynamoDB read for this page' }),
        'x-consumed-rcu': z.string().optional().openapi({ description: 'read capacity consumed, when reported' }),
        'server-timing': z
          .string()
          .openapi({ description: 'dynamodb: ms waiting on DynamoDB; total: ms building this page' }),
      }),
    },
    ...errorResponses,
  },
});

export function registerListingRoute(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const lookup = collectionLookup(deps);
  const { maps } = deps;
  // This app's, per collection and shard map: where listings found each shard's end.
  const memories = new ReadMemories();
  app.openapi(listingRoute, async (c) => {
    startTime(c, 'total');
    const collection = lookup(c.req.valid('param').collection);
    const query = c.req.valid('query');
    const order: SortOrder = query.order ?? 'asc';
    // Filter values read by the order's field types, strings normalized (core/order-filter.ts).
    const { filter, scope: filterScope } = listingFilter(orderOf(collection), query);
    const scope = { collection: collection.name, order, filter: filterScope };
    const resume = query.cursor === undefined ? undefined : decodeCursor(query.cursor, scope, deps.cursorSecret);
    // One snapshot, one index: a page never mixes two maps. The index key is the same in
    // both, so a cursor from before a switch of maps resumes exactly after it.
    const { read, pointer } = await maps.snapshot(collection, c.get('call'));
    const fields = parseFields(query.fields);
    const attributes = fields && projectionFor(collection, fields);
    const listing = await listItems(
      deps.store,
      read,
      {
        filter,
        order,
        ...(resume && { after: resume.position, ...(resume.hint && { hint: resume.hint }) }),
        ...(attributes && { attributes }),
      },
      query.limit ?? DEFAULT_LIMIT,
      c.get('call'),
      // Shard ends are a map's own: each version remembers its own.
      memories.of(`${collection.name}/v${pointer.read.version}`),
    );
    const { stats } = listing;
    c.header('x-shard-queries', String(stats.shardQueries));
    c.header('x-round-trips', String(stats.roundTrips));
    c.header('x-shard-hedges', String(stats.hedges));
    c.header('x-items-read', String(stats.itemsRead));
    if (stats.consumedCapacity !== undefined) c.header('x-consumed-rcu', String(stats.consumedCapacity));
    setMetric(c, 'dynamodb', stats.dynamoMs);
    endTime(c, 'total');
    const hidden = hiddenAttributes(collection);
    return exactJson(
      c,
      {
        items: listing.records.map((record) => publicWireItem(hidden, record, fields)),
        nextCursor:
          listing.nextPosition === undefined
            ? null
            : encodeCursor(listing.nextPosition, scope, deps.cursorSecret, listing.nextHint),
      },
      200,
    );
  });
}
