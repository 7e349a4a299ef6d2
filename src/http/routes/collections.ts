import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { apiRoute } from '../api-route';
import { invalidRequest } from '../../core/errors';
import { describeOrder, orderOf, readableBoundaries } from '../../core/order';
import { routeLookup } from '../../core/order-filter';
import { groupValueFromPath } from '../../core/group-key';
import { groupView } from '../../core/group-view';
import { shardKey } from '../../core/index-key';
import { heavyHitters } from '../../core/strategies/range';
import type { RoutedCollection } from '../../core/collection';
import type { MapSnapshot } from '../../service/map-source';
import type { CallContext } from '../../store/retry';
import type { Shardline } from '../../service/shardline';
import type { AppEnv } from '../env';
import { groupingOf } from './group-summary';
import {
  CollectionInfo,
  CollectionParam,
  collectionPathResponses,
  errorResponses,
  jsonContent,
  queryErrorResponse,
  RouteQuery,
  RouteResponse,
} from '../schemas';

/** What a client may know about a collection, as its current read map has it, and where its shard maps are. */
function describeCollection(snapshot: MapSnapshot): z.infer<typeof CollectionInfo> {
  const collection = snapshot.read;
  const grouping = groupingOf(collection);
  const { strategy } = collection.map;
  const { pointer, target } = snapshot;
  const boundaries = strategy.boundaries && [...strategy.boundaries];
  const boundaryValues = boundaries && readableBoundaries(orderOf(collection), boundaries);
  return {
    name: collection.name,
    strategy: strategy.kind,
    shardCount: strategy.shardCount,
    prefix: collection.prefix,
    field: collection.field,
    ...describeOrder(orderOf(collection)),
    table: collection.table,
    index: collection.map.index.name,
    primaryKey: collection.primaryKey.map(({ name, type }) => ({ name, type })),
    shardKeyAttribute: collection.map.index.shardKeyAttribute,
    indexKeyAttribute: collection.map.index.indexKeyAttribute,
    ...(boundaries && { boundaries, heavyHitters: heavyHitters(boundaries) }),
    ...(boundaryValues && { boundaryValues }),
    map: {
      version: pointer.read.version,
      phase: pointer.phase,
      readIndex: collection.map.index.name,
      writeVersions: pointer.writes.map(({ version }) => version),
      ...(pointer.target &&
        target && {
          target: {
            version: pointer.target.version,
            index: target.map.index.name,
            strategy: target.map.strategy.kind,
            shardCount: target.map.strategy.shardCount,
          },
        }),
      ...(pointer.progress && { progress: { ...pointer.progress } }),
    },
    ...(grouping && { group: grouping }),
  };
}

const listRoute = apiRoute({
  method: 'get',
  path: '/collections',
  operationId: 'listCollections',
  summary: 'The configured collections',
  description:
    'Every collection of the configuration, each as GET /collections/{collection} describes it, ' +
    'with the shard map it currently reads.',
  tags: ['collections'],
  responses: {
    200: jsonContent(z.object({ collections: z.array(CollectionInfo) }), 'every collection'),
    ...queryErrorResponse,
  },
});

const showRoute = apiRoute({
  method: 'get',
  path: '/collections/{collection}',
  operationId: 'getCollection',
  summary: 'One collection: strategy, shard count, boundaries, heavy hitters, attributes',
  description:
    'How the collection is sharded (strategy, shard count, boundaries, heavy hitters), the table, index and ' +
    'attributes it uses, and its shard map: version, phase, and the reshard under way if any.',
  tags: ['collections'],
  request: { params: CollectionParam },
  responses: {
    200: jsonContent(CollectionInfo, 'the collection'),
    ...collectionPathResponses,
  },
});

const routeRoute = apiRoute({
  method: 'get',
  path: '/collections/{collection}/route',
  operationId: 'getKeyRoute',
  summary: 'Where a key is written and read',
  description:
    'The normalized value of `key` and the shards an item with that ordered value is written to and read from ' +
    '(several when the strategy spreads it, or when `key` is only the leading value of a typed order). ' +
    "A grouped collection's shards are each group's own: name the group (`group`).",
  tags: ['collections'],
  request: { params: CollectionParam, query: RouteQuery },
  responses: {
    200: jsonContent(RouteResponse, 'its shards'),
    400: errorResponses[400],
    404: errorResponses[404],
  },
});

export function registerCollectionRoutes(app: OpenAPIHono<AppEnv>, shardline: Shardline): void {
  const describe = async (name: string, context: CallContext) =>
    describeCollection(await shardline.snapshot(name, context));
  app.openapi(listRoute, async (c) => {
    const names = shardline.collections.map(({ name }) => name);
    return c.json({ collections: await Promise.all(names.map((name) => describe(name, c.get('call')))) }, 200);
  });
  app.openapi(showRoute, async (c) => c.json(await describe(c.req.valid('param').collection, c.get('call')), 200));
  app.openapi(routeRoute, async (c) => {
    const { read } = await shardline.snapshot(c.req.valid('param').collection, c.get('call'));
    const { key, group } = c.req.valid('query');
    if (!key.isWellFormed()) throw invalidRequest('key holds an unpaired surrogate');
    const collection = routedFor(read, group);
    const { normalized, range } = routeLookup(orderOf(collection), key);
    const { strategy } = collection.map;
    // A leading value alone (`2005` of year, title) is every tuple that starts with it: the shards they may be on.
    const shards = range
      ? strategy
          .groupsForRange(range)
          .flat()
          .sort((a, b) => a - b)
      : strategy.shardsForValue(normalized);
    const shardKeys = shards.map((shard) => shardKey(collection.prefix, shard));
    // Written to one of several shards (random strategy, heavy hitters, a leading value): read from all.
    return c.json({ normalized, shards, shardKeys, spread: shards.length > 1 }, 200);
  });
}

/** What a key's route is taken from: the collection, or in a grouped one the named group's view (its own keys). */
function routedFor(collection: RoutedCollection, group: string | undefined): RoutedCollection {
  const spec = collection.group;
  if (!spec) {
    if (group === undefined) return collection;
    throw invalidRequest(`collection "${collection.name}" is not grouped: drop group`);
  }
  if (group === undefined) {
    const name = `collection "${collection.name}" is grouped by "${spec.field}"`;
    throw invalidRequest(`${name}: name the group (group=…), whose shards are its own`);
  }
  return groupView(collection, groupValueFromPath(spec, collection.prefix, group));
}
