import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Collection } from '../../core/collection';
import { ShardlineError } from '../../core/errors';
import { normalize } from '../../core/normalize';
import { shardKey } from '../../core/index-key';
import { heavyHitters } from '../../core/strategies/range';
import type { AppDeps, AppEnv } from '../env';
import { CollectionInfo, CollectionParam, errorResponses, RouteQuery, RouteResponse } from '../schemas';

export function collectionLookup(deps: AppDeps): (name: string) => Collection {
  const byName = new Map(deps.collections.map((collection) => [collection.name, collection]));
  return (name) => {
    const collection = byName.get(name);
    if (!collection) throw new ShardlineError('collection_not_found', `no collection named "${name}"`);
    return collection;
  };
}

/** What a client may know about a collection (boundaries and heavy hitters for range). */
export function describeCollection(collection: Collection): z.infer<typeof CollectionInfo> {
  const { strategy } = collection;
  const boundaries = strategy.boundaries && [...strategy.boundaries];
  return {
    name: collection.name,
    strategy: strategy.kind,
    shardCount: strategy.shardCount,
    prefix: collection.prefix,
    field: collection.field,
    normalization: collection.normalization,
    table: collection.table,
    index: collection.index,
    primaryKey: collection.primaryKey.map(({ name, type }) => ({ name, type })),
    shardKeyAttribute: collection.shardKeyAttribute,
    indexKeyAttribute: collection.indexKeyAttribute,
    ...(boundaries && { boundaries, heavyHitters: heavyHitters(boundaries) }),
  };
}

const listRoute = createRoute({
  method: 'get',
  path: '/collections',
  summary: 'The configured collections',
  responses: {
    200: {
      content: { 'application/json': { schema: z.object({ collections: z.array(CollectionInfo) }) } },
      description: 'every collection',
    },
  },
});

const showRoute = createRoute({
  method: 'get',
  path: '/collections/{collection}',
  summary: 'One collection: strategy, shard count, boundaries, heavy hitters, attributes',
  request: { params: CollectionParam },
  responses: {
    200: { content: { 'application/json': { schema: CollectionInfo } }, description: 'the collection' },
    404: errorResponses[404],
  },
});

const routeRoute = createRoute({
  method: 'get',
  path: '/collections/{collection}/route',
  summary: 'Where a key is written and read',
  request: { params: CollectionParam, query: RouteQuery },
  responses: {
    200: { content: { 'application/json': { schema: RouteResponse } }, description: 'its shards' },
    400: errorResponses[400],
    404: errorResponses[404],
  },
});

export function registerCollectionRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const lookup = collectionLookup(deps);
  app.openapi(listRoute, (c) => c.json({ collections: deps.collections.map(describeCollection) }, 200));
  app.openapi(showRoute, (c) => c.json(describeCollection(lookup(c.req.valid('param').collection)), 200));
  app.openapi(routeRoute, (c) => {
    const collection = lookup(c.req.valid('param').collection);
    const { key } = c.req.valid('query');
    if (!key.isWellFormed()) throw new ShardlineError('invalid_request', 'key holds an unpaired surrogate');
    const normalized = normalize(key, collection.normalization);
    const shards = collection.strategy.shardsForValue(normalized);
    const spread = collection.strategy.kind === 'random' || shards.length > 1;
    return c.json(
      { normalized, shards, shardKeys: shards.map((shard) => shardKey(collection.prefix, shard)), spread },
      200,
    );
  });
}
