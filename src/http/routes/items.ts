import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { apiRoute } from '../api-route';
import { etagAttributeOf } from '../../core/collection';
import { parseEtagList } from '../../core/etag';
import { isPlainObject, itemFromWire, itemToWire } from '../../core/values';
import { primaryKeyFromParams } from '../../service/read-item';
import type { WriteResult } from '../../service/write-items';
import type { AppDeps, AppEnv } from '../env';
import {
  capacityResponseHeaders,
  consumedCapacityHeaders,
  etagHeaders,
  etagResponseHeader,
  fieldsParam,
  ifMatchHeader,
  ifNoneMatchHeader,
  parseFields,
  preconditionsFrom,
} from '../item-headers';
import { exactJson } from '../lossless-json';
import { type BodyLimits, DEFAULT_BODY_LIMITS, itemBodyGuards, jsonBodyGuards } from '../middleware/json-body';
import {
  BatchBody,
  BatchResponse,
  bodyTooLargeResponse,
  CollectionParam,
  errorResponses,
  Item,
  jsonBody,
  jsonContent,
  preconditionResponses,
  WriteResponse,
} from '../schemas';
import { hiddenAttributes, PublicWireItem } from './public-item';
import { registerBatchKeyRoutes } from './batch-keys';

/** An item route's answer headers: the item's ETag and the capacity the request consumed. */
const itemHeaders = etagResponseHeader.extend(capacityResponseHeaders.shape);

const conditionalWriteResponses = { ...errorResponses, ...preconditionResponses, ...bodyTooLargeResponse };

const putRoute = (body: MiddlewareHandler<AppEnv>) =>
  apiRoute({
    method: 'put',
    path: '/collections/{collection}/items',
    operationId: 'putItem',
    summary: 'Write one item (assigns its shard)',
    description:
      'Writes the item with its shard key and index key, under every shard map a reshard writes to; ' +
      'If-Match / If-None-Match make the write conditional on the ETag of the item it replaces.',
    tags: ['items'],
    middleware: body,
    request: {
      params: CollectionParam,
      headers: z.object({ 'if-match': ifMatchHeader, 'if-none-match': ifNoneMatchHeader }),
      body: jsonBody(Item, 'the item'),
    },
    responses: {
      201: { ...jsonContent(WriteResponse, 'written'), headers: itemHeaders },
      ...conditionalWriteResponses,
    },
  });

const batchRoute = (limits: BodyLimits) =>
  apiRoute({
    method: 'post',
    path: '/collections/{collection}/items/batch',
    operationId: 'batchPutItems',
    summary: 'Write up to 1000 items; each is reported written or failed',
    description:
      'Each item is written as PUT writes one, unconditionally; an item refused or not written is listed ' +
      'in `failed` with its index and why, the others are written.',
    tags: ['items'],
    middleware: jsonBodyGuards(limits.batchBytes, limits.timeoutMs),
    request: { params: CollectionParam, body: jsonBody(BatchBody, 'the items') },
    responses: {
      200: { ...jsonContent(BatchResponse, 'what was written, what failed'), headers: capacityResponseHeaders },
      ...errorResponses,
      ...bodyTooLargeResponse,
    },
  });

/** Query parameters naming a primary key: the key attributes of the configured tables. */
function keyQuery(deps: AppDeps, extra: Record<string, z.ZodType> = {}) {
  const names = deps.shardline.collections.flatMap((collection) => collection.primaryKey.map(({ name }) => name));
  const keyParam = z.string().optional();
  const params = names.map((name) => [name, keyParam.openapi({ description: `primary key attribute ${name}` })]);
  // A name two tables share is one parameter, where it first comes.
  return z.looseObject({ ...Object.fromEntries(params), ...extra });
}

const getRoute = (deps: AppDeps) =>
  apiRoute({
    method: 'get',
    path: '/collections/{collection}/item',
    operationId: 'getItem',
    summary: 'Read one item by its primary key',
    description:
      'The primary key attributes are query parameters; `fields` returns only the named attributes. ' +
      'The ETag header names the version read; If-None-Match with it answers 304.',
    tags: ['items'],
    request: {
      params: CollectionParam,
      query: keyQuery(deps, { fields: fieldsParam }),
      headers: z.object({
        'if-none-match': z.string().optional().openapi({ description: 'ETags the caller holds: 304 if one matches' }),
      }),
    },
    responses: {
      200: { ...jsonContent(z.object({ item: Item }), 'the item'), headers: itemHeaders },
      304: { description: 'the item still has the ETag the caller sent in If-None-Match' },
      ...errorResponses,
    },
  });

const patchRoute = (deps: AppDeps, body: MiddlewareHandler<AppEnv>) =>
  apiRoute({
    method: 'patch',
    path: '/collections/{collection}/item',
    operationId: 'patchItem',
    summary: 'Change an item with a JSON merge patch (RFC 7396)',
    tags: ['items'],
    description:
      'null removes an attribute, an object merges into a map, anything else replaces; a new value of the ' +
      'ordered field moves the item in the order in the same write. Also accepts application/json.',
    middleware: body,
    request: {
      params: CollectionParam,
      query: keyQuery(deps),
      headers: z.object({ 'if-match': ifMatchHeader }),
      body: {
        content: { 'application/merge-patch+json': { schema: Item }, 'application/json': { schema: Item } },
        required: true,
        description: 'the merge patch',
      },
    },
    responses: {
      200: { ...jsonContent(WriteResponse, 'the item as patched'), headers: itemHeaders },
      ...conditionalWriteResponses,
    },
  });

const deleteRoute = (deps: AppDeps) =>
  apiRoute({
    method: 'delete',
    path: '/collections/{collection}/item',
    operationId: 'deleteItem',
    summary: 'Delete one item by its primary key',
    description: 'The primary key attributes are query parameters; If-Match makes the delete conditional.',
    tags: ['items'],
    request: { params: CollectionParam, query: keyQuery(deps), headers: z.object({ 'if-match': ifMatchHeader }) },
    responses: {
      204: { description: 'deleted', headers: capacityResponseHeaders },
      ...errorResponses,
      ...preconditionResponses,
    },
  });

export function registerItemRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const { shardline } = deps;
  // Every item route, never the listing (GET …/items), which counts its reads in its own headers.
  app.on('PUT', '/collections/:collection/items', consumedCapacityHeaders);
  app.use('/collections/:collection/item', consumedCapacityHeaders);
  for (const batch of ['batch', 'batch-get', 'batch-delete']) {
    app.on('POST', `/collections/:collection/items/${batch}`, consumedCapacityHeaders);
  }
  const limits = deps.security?.bodyLimits ?? DEFAULT_BODY_LIMITS;
  const keyOf = (name: string, query: object) =>
    primaryKeyFromParams(shardline.collection(name), query as Record<string, string | undefined>);
  // The item as written, in its JSON form, its ETag in the header.
  const written = <S extends 200 | 201>(c: Context<AppEnv>, { etag, ...result }: WriteResult, status: S) =>
    exactJson(c, { ...result, item: itemToWire(result.item) }, status, etagHeaders(etag));

  const inParts = (name: string) => shardline.collections.some((c) => c.name === name && c.parts !== undefined);
  const itemBody = itemBodyGuards(limits, inParts);
  app.openapi(putRoute(itemBody), async (c) => {
    // A collection that does not exist is a 404 whatever the body holds.
    const { name } = shardline.collection(c.req.valid('param').collection);
    const preconditions = preconditionsFrom(c, true);
    const result = await shardline.put(name, itemFromWire(c.req.valid('json')), c.get('call'), preconditions);
    return written(c, result, 201);
  });

  app.openapi(batchRoute(limits), async (c) => {
    const { name } = shardline.collection(c.req.valid('param').collection);
    const items = c.req.valid('json').items.map((item) => (isPlainObject(item) ? itemFromWire(item) : item));
    const outcome = await shardline.putBatch(name, items, c.get('call'));
    return c.json({ written: outcome.written.length, failed: outcome.failed }, 200);
  });

  app.openapi(getRoute(deps), async (c) => {
    const name = c.req.valid('param').collection;
    const { fields: fieldsText, ...params } = c.req.valid('query') as Record<string, string | undefined>;
    const fields = parseFields(fieldsText);
    const record = await shardline.get(name, keyOf(name, params), c.get('call'), fields);
    const collection = shardline.collection(name);
    const etag = record[etagAttributeOf(collection)];
    const held = parseEtagList(c.req.header('if-none-match'), 'weak');
    if (typeof etag === 'string' && held !== undefined && (held === '*' || held.includes(etag))) {
      return c.body(null, 304, etagHeaders(etag));
    }
    const item = new PublicWireItem(hiddenAttributes(collection), record, fields);
    return exactJson(c, { item }, 200, etagHeaders(etag));
  });

  app.openapi(patchRoute(deps, itemBody), async (c) => {
    const name = c.req.valid('param').collection;
    const key = keyOf(name, c.req.valid('query'));
    const patch = c.req.valid('json');
    const result = await shardline.patch(name, key, patch, c.get('call'), preconditionsFrom(c, false));
    return written(c, result, 200);
  });

  app.openapi(deleteRoute(deps), async (c) => {
    const name = c.req.valid('param').collection;
    await shardline.delete(name, keyOf(name, c.req.valid('query')), c.get('call'), preconditionsFrom(c, false));
    return c.body(null, 204);
  });

  registerBatchKeyRoutes(app, deps);
}
