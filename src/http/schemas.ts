import { z } from '@hono/zod-openapi';
import { strategyDefinitions, strategyNames } from '../core/strategies';
import { MapInfo } from './map-schema';
import { MAX_BATCH_ITEMS } from '../service/write-items';
import { fieldsParam } from './item-headers';

export const ErrorBody = z
  .object({
    error: z
      .object({
        code: z.string(),
        message: z.string(),
        requestId: z.string().openapi({ description: 'also in the x-request-id header; quote it to support' }),
      })
      .loose(),
  })
  .openapi('Error');

export const Item = z.record(z.string(), z.unknown()).openapi('Item', {
  description: 'An item: its primary key attributes, the ordered field, and any JSON attributes.',
  example: { pk: 'Solar Fields', sk: 'album#Leaving Home', title: 'Leaving Home', year: 2005 },
});

export const CollectionParam = z.object({
  collection: z.string().openapi({ param: { name: 'collection', in: 'path' }, example: 'albums' }),
});

const limitParam = z
  .string()
  .regex(/^\d{1,4}$/, 'limit must be a whole number from 1 to 1000')
  .transform(Number)
  .pipe(z.number().int().min(1, 'limit must be at least 1').max(1000, 'limit must be at most 1000'))
  .optional()
  .openapi({ type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'items per page' });

export const ListQuery = z.object({
  limit: limitParam,
  order: z.enum(['asc', 'desc']).optional().openapi({ description: 'code point order of the normalized value' }),
  cursor: z.string().min(1).max(8192).optional().openapi({ description: 'nextCursor of the previous page' }),
  key: z.string().optional().openapi({ description: 'items whose normalized value equals normalize(key)' }),
  prefix: z.string().optional().openapi({ description: 'items whose normalized value starts with normalize(prefix)' }),
  from: z.string().optional().openapi({ description: 'inclusive lower bound on the normalized value' }),
  to: z.string().optional().openapi({ description: 'inclusive upper bound on the normalized value' }),
  fields: fieldsParam,
});

export const ListResponse = z.object({ items: z.array(Item), nextCursor: z.string().nullable() }).openapi('Listing');

export const RouteQuery = z.object({
  key: z.string().openapi({ description: 'a value of the ordered field', example: 'Leaving Home' }),
});

export const RouteResponse = z
  .object({
    normalized: z.string(),
    shards: z.array(z.number().int()),
    shardKeys: z.array(z.string()),
    spread: z.boolean().openapi({ description: 'a write picks one of `shards` at random' }),
  })
  .openapi('Route');

export const WriteResponse = z
  .object({ shard: z.number().int(), shardKey: z.string(), item: Item })
  .openapi('WriteResult');

export const BatchBody = z
  .object({
    items: z
      .array(z.unknown())
      .min(1, 'items must hold at least one item')
      .max(MAX_BATCH_ITEMS, `at most ${MAX_BATCH_ITEMS} items per batch`),
  })
  .openapi('Batch');

export const BatchResponse = z
  .object({
    written: z.number().int(),
    failed: z.array(z.object({ index: z.number().int(), error: z.object({ code: z.string(), message: z.string() }) })),
  })
  .openapi('BatchResult');

export const CollectionInfo = z
  .object({
    name: z.string(),
    strategy: strategyKind(),
    shardCount: z.number().int(),
    prefix: z.string(),
    field: z.string(),
    normalization: z
      .string()
      .optional()
      .openapi({ description: "the field's normalization; a typed order names each field's in `order`" }),
    order: z
      .array(
        z.object({
          field: z.string(),
          type: z.enum(['string', 'number', 'date']),
          direction: z.enum(['asc', 'desc']),
          normalization: z.string().optional().openapi({ description: 'string fields only' }),
        }),
      )
      .optional()
      .openapi({ description: 'typed or compound order; boundaries are then encoded tuples (see boundaryValues)' }),
    table: z.string(),
    index: z.string(),
    primaryKey: z.array(z.object({ name: z.string(), type: z.string() })),
    shardKeyAttribute: z.string(),
    indexKeyAttribute: z.string(),
    boundaries: z.array(z.string()).optional(),
    boundaryValues: z
      .array(z.array(z.union([z.string(), z.number()])))
      .optional()
      .openapi({ description: 'typed orders: each boundary as field values, [] for the first' }),
    heavyHitters: z.array(z.object({ value: z.string(), shards: z.array(z.number().int()) })).optional(),
    map: MapInfo.optional(),
  })
  .openapi('Collection');

/** The registered strategy names, each described; strategies registered after this module loads are not listed. */
function strategyKind() {
  const description = strategyDefinitions()
    .map(({ name, description }) => `\`${name}\`: ${description}`)
    .join('; ');
  return z.enum(strategyNames() as [string, ...string[]]).openapi({ description });
}

export const errorResponses = {
  400: { content: { 'application/json': { schema: ErrorBody } }, description: 'bad input; nothing was written' },
  404: { content: { 'application/json': { schema: ErrorBody } }, description: 'unknown collection or item' },
  503: { content: { 'application/json': { schema: ErrorBody } }, description: 'DynamoDB failed after retries' },
  504: { content: { 'application/json': { schema: ErrorBody } }, description: 'the request deadline passed' },
} as const;

/**
 * For the routes that read nothing but their path: every route refuses a query parameter it does not
 * declare, and a malformed %-escape (middleware/known-query.ts).
 */
export const queryErrorResponse = {
  400: {
    content: { 'application/json': { schema: ErrorBody } },
    description: 'a query parameter the route does not take, or a malformed %-escape',
  },
} as const;

/** For the conditional writes (PUT, PATCH, DELETE of an item). */
export const preconditionResponses = {
  409: {
    content: { 'application/json': { schema: ErrorBody } },
    description: 'the item belongs to another collection; nothing was written',
  },
  412: {
    content: { 'application/json': { schema: ErrorBody } },
    description: 'If-Match or If-None-Match does not hold; nothing was written',
  },
} as const;

/** For the routes that read a body (PUT item, POST batch). */
export const bodyTooLargeResponse = {
  413: { content: { 'application/json': { schema: ErrorBody } }, description: 'the body is over the size limit' },
} as const;
