import { z } from '@hono/zod-openapi';
import { PHASES } from '../core/shard-map';
import { strategyDefinitions, strategyNames } from '../core/strategies';
import { MAX_BATCH_ITEMS } from '../service/write-items';
import { fieldsParam } from './item-headers';
import { Grouping } from './group-schemas';

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
  group: z
    .string()
    .optional()
    .openapi({ description: "a grouped collection's group (required there; its shards are the group's own)" }),
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

export const ItemError = z.object({
  index: z.number().int(),
  error: z.object({ code: z.string(), message: z.string() }),
});

export const BatchResponse = z.object({ written: z.number().int(), failed: z.array(ItemError) }).openapi('BatchResult');

export const BoundaryValues = z
  .array(z.array(z.union([z.string(), z.number()])))
  .optional()
  .openapi({ description: 'typed orders: each boundary as field values, [] for the first' });

/** A collection's shard map as clients see it (docs/resharding.md). */
const MapInfo = z
  .object({
    version: z.number().int().openapi({ description: 'the map version listings read' }),
    phase: z.enum(PHASES as [string, ...string[]]).openapi({ description: '"stable", or where a reshard is' }),
    readIndex: z.string().openapi({ description: 'the index listings read' }),
    writeVersions: z.array(z.number().int()).openapi({ description: 'the map versions every write sets' }),
    target: z
      .object({ version: z.number().int(), index: z.string(), strategy: z.string(), shardCount: z.number().int() })
      .optional()
      .openapi({ description: 'during a reshard: the map being built' }),
    progress: z
      .object({
        pass: z.string(),
        scanned: z.number().int(),
        members: z.number().int(),
        moved: z.number().int(),
        segmentsDone: z.number().int(),
        segments: z.number().int(),
      })
      .partial()
      .passthrough()
      .optional()
      .openapi({ description: "during a reshard: the current scan's counts" }),
  })
  .openapi('ShardMap');

/** The registered strategy names, each described; strategies registered after this module loads are not listed. */
const StrategyKind = z.enum(strategyNames() as [string, ...string[]]).openapi({
  description: strategyDefinitions()
    .map(({ name, description }) => `\`${name}\`: ${description}`)
    .join('; '),
});

export const CollectionInfo = z
  .object({
    name: z.string(),
    strategy: StrategyKind,
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
    boundaryValues: BoundaryValues,
    heavyHitters: z.array(z.object({ value: z.string(), shards: z.array(z.number().int()) })).optional(),
    map: MapInfo.optional(),
    group: Grouping.optional(),
  })
  .openapi('Collection');

/** `schema` as a route's JSON body or answer. */
export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

/** `schema` as a route's required JSON body. */
export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  content: { 'application/json': { schema } },
  required: true,
  description,
});

const errorAnswer = (description: string) => jsonContent(ErrorBody, description);

/**
 * The error answers routes share, by the name the OpenAPI document declares each under once
 * (`components.responses`, see docs/shared-responses.ts) for the operations to refer to.
 */
export const ERROR_ANSWERS = {
  BadInput: errorAnswer('bad input; nothing was written'),
  UnknownQueryParameter: errorAnswer('a query parameter the route does not take, or a malformed %-escape'),
  Unauthorized: errorAnswer('no API key, or one that is not valid (only when the service runs with API_KEYS)'),
  Forbidden: errorAnswer("the API key's scope does not allow this (a read key writing, a metrics key)"),
  NotFound: errorAnswer('unknown collection or item'),
  OtherCollection: errorAnswer('the item belongs to another collection; nothing was written'),
  PreconditionFailed: errorAnswer('If-Match or If-None-Match does not hold; nothing was written'),
  BodyTooLarge: errorAnswer('the body is over the size limit'),
  RateLimited: errorAnswer('over RATE_LIMIT_PER_SECOND, or too many failed authentications; see Retry-After'),
  DynamoDbFailed: errorAnswer('DynamoDB failed after retries'),
  DeadlinePassed: errorAnswer('the request deadline passed'),
};

export const errorResponses = {
  400: ERROR_ANSWERS.BadInput,
  404: ERROR_ANSWERS.NotFound,
  503: ERROR_ANSWERS.DynamoDbFailed,
  504: ERROR_ANSWERS.DeadlinePassed,
};

/** For the routes that read nothing but their path: every route refuses an undeclared query parameter. */
export const queryErrorResponse = { 400: ERROR_ANSWERS.UnknownQueryParameter };

/** For the routes that read nothing but their collection's name. */
export const collectionPathResponses = { ...queryErrorResponse, 404: ERROR_ANSWERS.NotFound };

/** For the conditional writes (PUT, PATCH, DELETE of an item). */
export const preconditionResponses = { 409: ERROR_ANSWERS.OtherCollection, 412: ERROR_ANSWERS.PreconditionFailed };

export const bodyTooLargeResponse = { 413: ERROR_ANSWERS.BodyTooLarge };
