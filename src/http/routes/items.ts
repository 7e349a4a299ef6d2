import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { JsonObject } from '../../core/item';
import { deleteItem, getItem, primaryKeyFromParams } from '../../service/read-item';
import { configMaps } from '../../service/map-source';
import { putBatch, putItem } from '../../service/write-items';
import type { AppDeps, AppEnv } from '../env';
import { type BodyLimits, DEFAULT_BODY_LIMITS, jsonBodyGuards } from '../middleware/json-body';
import {
  BatchBody,
  BatchResponse,
  bodyTooLargeResponse,
  CollectionParam,
  errorResponses,
  Item,
  WriteResponse,
} from '../schemas';
import { collectionLookup } from './collections';
import { publicItem } from './public-item';

const jsonBody = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  required: true,
  description,
});

const putRoute = (limits: BodyLimits) =>
  createRoute({
    method: 'put',
    path: '/collections/{collection}/items',
    summary: 'Write one item (assigns its shard)',
    middleware: jsonBodyGuards(limits.itemBytes),
    request: { params: CollectionParam, body: jsonBody(Item, 'the item') },
    responses: {
      201: { content: { 'application/json': { schema: WriteResponse } }, description: 'written' },
      ...errorResponses,
      ...bodyTooLargeResponse,
    },
  });

const batchRoute = (limits: BodyLimits) =>
  createRoute({
    method: 'post',
    path: '/collections/{collection}/items/batch',
    summary: 'Write up to 1000 items; each is reported written or failed',
    middleware: jsonBodyGuards(limits.batchBytes),
    request: { params: CollectionParam, body: jsonBody(BatchBody, 'the items') },
    responses: {
      200: { content: { 'application/json': { schema: BatchResponse } }, description: 'what was written, what failed' },
      ...errorResponses,
      ...bodyTooLargeResponse,
    },
  });

/** Query parameters naming a primary key: the key attributes of the configured tables. */
function keyQuery(deps: AppDeps) {
  const names = new Set(deps.collections.flatMap((collection) => collection.primaryKey.map(({ name }) => name)));
  return z.looseObject(
    Object.fromEntries(
      [...names].map((name) => [
        name,
        z
          .string()
          .optional()
          .openapi({ description: `primary key attribute ${name}` }),
      ]),
    ),
  );
}

const getRoute = (deps: AppDeps) =>
  createRoute({
    method: 'get',
    path: '/collections/{collection}/item',
    summary: 'Read one item by its primary key',
    request: { params: CollectionParam, query: keyQuery(deps) },
    responses: {
      200: { content: { 'application/json': { schema: z.object({ item: Item }) } }, description: 'the item' },
      ...errorResponses,
    },
  });

const deleteRoute = (deps: AppDeps) =>
  createRoute({
    method: 'delete',
    path: '/collections/{collection}/item',
    summary: 'Delete one item by its primary key',
    request: { params: CollectionParam, query: keyQuery(deps) },
    responses: { 204: { description: 'deleted' }, ...errorResponses },
  });

export function registerItemRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const lookup = collectionLookup(deps);
  const maps = deps.maps ?? configMaps();
  const random = deps.random ?? Math.random;
  const limits = deps.security?.bodyLimits ?? DEFAULT_BODY_LIMITS;

  app.openapi(putRoute(limits), async (c) => {
    const collection = lookup(c.req.valid('param').collection);
    const { writes } = await maps.snapshot(collection, c.get('call'));
    const result = await putItem(deps.store, writes, c.req.valid('json'), c.get('call'), random);
    return c.json(result, 201);
  });

  app.openapi(batchRoute(limits), async (c) => {
    const collection = lookup(c.req.valid('param').collection);
    const { writes } = await maps.snapshot(collection, c.get('call'));
    const outcome = await putBatch(deps.store, writes, c.req.valid('json').items, c.get('call'), random);
    return c.json({ written: outcome.written.length, failed: outcome.failed }, 200);
  });

  app.openapi(getRoute(deps), async (c) => {
    const collection = lookup(c.req.valid('param').collection);
    const key = primaryKeyFromParams(collection, c.req.valid('query') as Record<string, string | undefined>);
    const record = await getItem(deps.store, collection, key, c.get('call'));
    return c.json({ item: publicItem(collection, record) as JsonObject }, 200);
  });

  app.openapi(deleteRoute(deps), async (c) => {
    const collection = lookup(c.req.valid('param').collection);
    const key = primaryKeyFromParams(collection, c.req.valid('query') as Record<string, string | undefined>);
    await deleteItem(deps.store, collection, key, c.get('call'));
    return c.body(null, 204);
  });
}
