import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { apiRoute } from '../api-route';
import { invalidRequest } from '../../core/errors';
import { itemToWire } from '../../core/values';
import { batchKeys, MAX_BATCH_DELETE_KEYS, MAX_BATCH_GET_KEYS, withKeyFields } from '../../service/batch-items';
import type { AppDeps, AppEnv } from '../env';
import { capacityResponseHeaders, fieldsParam, parseFields } from '../item-headers';
import { exactJson } from '../lossless-json';
import { DEFAULT_BODY_LIMITS, jsonBodyGuards } from '../middleware/json-body';
import {
  bodyTooLargeResponse,
  CollectionParam,
  errorResponses,
  Item,
  ItemError,
  jsonBody,
  jsonContent,
} from '../schemas';
import { hiddenAttributes, PublicWireItem } from './public-item';

const Key = z.record(z.string(), z.unknown()).openapi('Key', {
  description: 'the primary key attributes of one item',
  example: { pk: 'Solar Fields', sk: 'album#Leaving Home' },
});

const keysBody = (max: number) =>
  z.object({
    keys: z.array(Key).min(1, 'keys must hold at least one key').max(max, `at most ${max} keys per request`),
  });

const batchGetRoute = (bytes: number, timeoutMs: number | undefined) =>
  apiRoute({
    method: 'post',
    path: '/collections/{collection}/items/batch-get',
    operationId: 'batchGetItems',
    summary: `Read up to ${MAX_BATCH_GET_KEYS} items by their primary keys`,
    description:
      'The items found come in the order of their keys; the keys of items the collection lacks are listed in ' +
      '`missing`. `fields` (in the query or the body) returns only the named attributes.',
    tags: ['items'],
    middleware: jsonBodyGuards(bytes, timeoutMs),
    request: {
      params: CollectionParam,
      query: z.object({ fields: fieldsParam }),
      body: jsonBody(
        keysBody(MAX_BATCH_GET_KEYS).extend({
          fields: z.array(z.string()).optional().openapi({
            description: 'attribute names: return only these (as the `fields` query parameter; not both)',
          }),
        }),
      ),
    },
    responses: {
      200: {
        ...jsonContent(
          z.object({ items: z.array(Item), missing: z.array(Key) }).openapi('BatchGet'),
          'the items found, in the order of their keys, and the keys of items the collection lacks',
        ),
        headers: capacityResponseHeaders,
      },
      ...errorResponses,
      ...bodyTooLargeResponse,
    },
  });

const batchDeleteRoute = (bytes: number, timeoutMs: number | undefined) =>
  apiRoute({
    method: 'post',
    path: '/collections/{collection}/items/batch-delete',
    operationId: 'batchDeleteItems',
    summary: `Delete up to ${MAX_BATCH_DELETE_KEYS} items; each is reported deleted or failed`,
    description:
      'Each key is deleted unconditionally; a key not deleted (item_not_found, conflict, …) is listed in ' +
      '`failed` with its index and why, the others are deleted.',
    tags: ['items'],
    middleware: jsonBodyGuards(bytes, timeoutMs),
    request: {
      params: CollectionParam,
      body: jsonBody(keysBody(MAX_BATCH_DELETE_KEYS)),
    },
    responses: {
      200: {
        ...jsonContent(
          z.object({ deleted: z.number().int(), failed: z.array(ItemError) }).openapi('BatchDeleteResult'),
          'how many were deleted; each key not deleted with why (item_not_found, conflict, …)',
        ),
        headers: capacityResponseHeaders,
      },
      ...errorResponses,
      ...bodyTooLargeResponse,
    },
  });

/** `POST …/items/batch-get` and `…/batch-delete`: many items by their primary keys. */
export function registerBatchKeyRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const { shardline } = deps;
  const { batchBytes: bytes, timeoutMs } = deps.security?.bodyLimits ?? DEFAULT_BODY_LIMITS;

  app.openapi(batchGetRoute(bytes, timeoutMs), async (c) => {
    const name = c.req.valid('param').collection;
    const collection = shardline.collection(name);
    const body = c.req.valid('json');
    const inQuery = c.req.valid('query').fields;
    if (inQuery !== undefined && body.fields !== undefined) {
      throw invalidRequest('name the fields in the query or in the body, not both');
    }
    const fields = parseFields(inQuery ?? body.fields);
    const keys = batchKeys(collection, body.keys);
    const { records, missing } = await shardline.batchGet(name, keys, c.get('call'), fields);
    const hidden = hiddenAttributes(collection);
    const shown = fields && withKeyFields(collection, fields);
    const items = records.map((record) => new PublicWireItem(hidden, record, shown));
    return exactJson(c, { items, missing: missing.map(itemToWire) }, 200);
  });

  app.openapi(batchDeleteRoute(bytes, timeoutMs), async (c) => {
    const name = c.req.valid('param').collection;
    const keys = batchKeys(shardline.collection(name), c.req.valid('json').keys);
    return c.json(await shardline.batchDelete(name, keys, c.get('call')), 200);
  });
}
