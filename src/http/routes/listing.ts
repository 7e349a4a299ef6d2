import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { apiRoute } from '../api-route';
import { endTime, setMetric, startTime, timing } from 'hono/timing';
import { parseFields } from '../item-headers';
import { exactJson } from '../lossless-json';
import type { Context } from 'hono';
import type { CollectionSpec } from '../../core/collection';
import type { Page, PageRequest, Shardline } from '../../service/shardline';
import type { AppEnv } from '../env';
import { CollectionParam, errorResponses, jsonContent, ListQuery, ListResponse } from '../schemas';
import { hiddenAttributes, PublicWireItem } from './public-item';

const DEFAULT_LIMIT = 100;

/** What a page cost, in headers: both listing routes answer them. */
export const pageHeaders = z.object({
  'x-shard-queries': z.string().openapi({ description: 'DynamoDB queries this page took' }),
  'x-round-trips': z
    .string()
    .openapi({ description: 'Waves of DynamoDB queries this page waited for one after another' }),
  'x-shard-hedges': z
    .string()
    .openapi({ description: 'of those queries, how many were sent a second time because the first was slow' }),
  'x-items-read': z.string().openapi({ description: 'items DynamoDB read for this page' }),
  'x-consumed-rcu': z.string().optional().openapi({ description: 'read capacity consumed, when reported' }),
  'server-timing': z
    .string()
    .openapi({ description: 'dynamodb: ms waiting on DynamoDB; total: ms building this page' }),
});

/** What both listing routes share: their tag, timing, query, and a page with its cost headers or an error. */
export const PAGE_ROUTE = {
  tags: ['listing'],
  // Only a page answered carries Server-Timing: an error names no DynamoDB time worth reading.
  middleware: timing({ total: false, enabled: (c) => c.res.ok }),
  responses: {
    200: { ...jsonContent(ListResponse, 'one page'), headers: pageHeaders },
    ...errorResponses,
  },
};

const listingRoute = apiRoute({
  ...PAGE_ROUTE,
  method: 'get',
  path: '/collections/{collection}/items',
  operationId: 'listItems',
  summary: 'A globally sorted listing, page by page',
  description:
    'Items in code point (UTF-8 byte) order of the normalized value, ties by primary key. ' +
    'At most one filter: key, prefix, or from/to. Follow nextCursor until it is null.',
  request: { params: CollectionParam, query: ListQuery },
});

export function registerListingRoute(app: OpenAPIHono<AppEnv>, shardline: Shardline): void {
  app.openapi(listingRoute, async (c) => {
    startTime(c, 'total');
    const collection = shardline.collection(c.req.valid('param').collection);
    const request = pageRequest(c.req.valid('query'));
    const page = await shardline.list(collection.name, request, c.get('call'));
    return pageResponse(c, collection, page, request.fields);
  });
}

/** A listing query as the service takes it; the API's `order` is its direction (a collection's order is fields). */
export function pageRequest(query: z.infer<typeof ListQuery>): PageRequest & { fields?: readonly string[] } {
  const { order: direction, cursor, limit, fields, ...filter } = query;
  const page = { cursor, limit: limit ?? DEFAULT_LIMIT, fields: parseFields(fields) };
  return { ...filter, direction: direction ?? 'asc', ...page };
}

/** A page as the listing routes answer it: the items, the next cursor and what the page cost in headers. */
export function pageResponse(c: Context<AppEnv>, collection: CollectionSpec, page: Page, fields?: readonly string[]) {
  const { stats, records } = page.listing;
  c.header('x-shard-queries', String(stats.shardQueries));
  c.header('x-round-trips', String(stats.roundTrips));
  c.header('x-shard-hedges', String(stats.hedges));
  c.header('x-items-read', String(stats.itemsRead));
  // With the reads beyond the shard queries (the parts `fields=` names, in a collection in parts).
  const beyond = c.get('call').capacity?.read ?? 0;
  if (stats.consumedCapacity !== undefined) c.header('x-consumed-rcu', String(stats.consumedCapacity + beyond));
  setMetric(c, 'dynamodb', stats.dynamoMs);
  endTime(c, 'total');
  const hidden = hiddenAttributes(collection);
  const items = records.map((record) => new PublicWireItem(hidden, record, fields));
  return exactJson(c, { items, nextCursor: page.nextCursor }, 200);
}
