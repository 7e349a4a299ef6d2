import type { CollectionSpec, RoutedCollection } from '../core/collection';
import { decodeCursor, encodeCursor } from '../core/cursor';
import { invalidRequest, ShardlineError } from '../core/errors';
import { groupValueFromPath } from '../core/group-key';
import { groupShards, groupView } from '../core/group-view';
import type { JsonObject } from '../core/item';
import { orderOf } from '../core/order';
import { type FilterQuery, listingFilter } from '../core/order-filter';
import type { OrderDirection } from '../core/order-encoding';
import type { Store } from '../store/store';
import { batchDelete, batchGet } from './batch-items';
import { deleteEntities, getEntities, putEntities } from './parts/entity-batches';
import { deleteEntity, getEntity, listingProjection, withListedParts } from './parts/read-entity';
import { patchEntity, putEntity } from './parts/write-entity';
import { type Preconditions, refuseReservedKeys } from './guards';
import { listPage } from './listing/executor';
import type { Listing } from './listing/listing';
import { ShardTails, ShardTailsByCollection } from './listing/shard-tails';
import { listShrinkingGroup } from './listing/shrinking-group';
import type { MapSource } from './map-source';
import type { RequestContext } from './metrics/request-tally';
import { patchItem } from './patch-item';
import { deleteItem, getItem, projectionFor } from './read-item';
import { Readiness } from './readiness';
import { putBatch, putItem } from './write-items';
import { type LoadClock, type LoadRecords, recordedLoad } from './recorded-load';

export interface ShardlineDeps {
  readonly collections: readonly CollectionSpec[];
  readonly store: Store;
  /** The shard maps requests route by: the table's (`ShardMaps`), or the config's for a fake store. */
  readonly maps: MapSource;
  /** Signs cursors; cursors from another secret are rejected. */
  readonly cursorSecret: string;
  /** Source of randomness for shard spreading (tests pin it). */
  readonly random?: () => number;
  /** The fleet's load records, where the routers keep them (SHARDLINE_LOAD_RECORDS). */
  readonly load?: LoadClock & { readonly records: LoadRecords };
}

/** One page's request: the filter's parameters as the client sent them, the direction, where to resume, how much. */
export interface PageRequest extends FilterQuery {
  readonly direction: OrderDirection;
  readonly cursor?: string | undefined;
  readonly limit: number;
  /** Attributes each item returns (with its key); all when unset. */
  readonly fields?: readonly string[] | undefined;
}

export interface Page {
  readonly listing: Listing;
  /** Where the next page starts, signed; null on the last page. */
  readonly nextCursor: string | null;
}

/**
 * The service: what shardline does with a collection's items, by collection name, over one
 * store and the shard maps in force; every call takes the request's context. The HTTP routes
 * only translate requests into these calls and their results into responses.
 */
export function createShardline(deps: ShardlineDeps) {
  const { store, maps, cursorSecret } = deps;
  const random = deps.random ?? Math.random;
  const byName = new Map(deps.collections.map((collection) => [collection.name, collection]));
  const tailsByCollection = new ShardTailsByCollection();

  const collection = (name: string): CollectionSpec => {
    const found = byName.get(name);
    if (!found) throw new ShardlineError('collection_not_found', `no collection named "${name}"`);
    return found;
  };
  /** The collection, once the keys (or items) a request names are known to be outside shardline's own. */
  const itemsOf = (name: string, keys: readonly unknown[]): CollectionSpec => {
    const spec = collection(name);
    refuseReservedKeys(spec, keys);
    return spec;
  };
  /** The collection as every map a write sets sees it, the read map first; the keys checked first. */
  const writeMaps = async (name: string, keys: readonly unknown[], context: RequestContext) =>
    (await maps.snapshot(itemsOf(name, keys), context)).writes;

  /** A collection whose entities are in parts (service/parts/): its own item paths. */
  const inParts = (name: string): boolean => collection(name).parts !== undefined;

  const readiness = new Readiness(store, maps, deps.collections);

  return {
    collections: deps.collections,
    collection,
    /** Answers once every table the collections use answers and the service can route (the health check). */
    ping: (context: RequestContext) => readiness.check(context),
    snapshot: (name: string, context: RequestContext) => maps.snapshot(collection(name), context),
    /** Whether the routers keep load records (`fleetLoad` answers). */
    recordsLoad: deps.load !== undefined,
    /** The fleet's load on the collection's read map over the last `minutes` ended minutes. */
    async fleetLoad(name: string, minutes: number, context: RequestContext) {
      const { load } = deps;
      if (!load) throw new ShardlineError('route_not_found', 'this router keeps no load records');
      const { read } = await maps.snapshot(collection(name), context);
      return { read, load: (await recordedLoad(load.records, read, minutes, load, context)).window };
    },

    put: async (name: string, item: unknown, context: RequestContext, preconditions?: Preconditions) => {
      const writes = await writeMaps(name, [item], context);
      return (inParts(name) ? putEntity : putItem)(store, writes, item, context, random, preconditions);
    },
    putBatch: async (name: string, items: readonly unknown[], context: RequestContext) =>
      (inParts(name) ? putEntities : putBatch)(store, await writeMaps(name, items, context), items, context, random),
    patch: async (
      name: string,
      key: JsonObject,
      patch: unknown,
      context: RequestContext,
      preconditions?: Preconditions,
    ) => {
      const writes = await writeMaps(name, [key], context);
      return (inParts(name) ? patchEntity : patchItem)(store, writes, key, patch, context, random, preconditions);
    },
    get: (name: string, key: JsonObject, context: RequestContext, fields?: readonly string[]) =>
      (inParts(name) ? getEntity : getItem)(store, itemsOf(name, [key]), key, context, fields),
    delete: (name: string, key: JsonObject, context: RequestContext, preconditions?: Preconditions) =>
      (inParts(name) ? deleteEntity : deleteItem)(store, itemsOf(name, [key]), key, context, preconditions),
    batchGet: (name: string, keys: readonly JsonObject[], context: RequestContext, fields?: readonly string[]) =>
      (inParts(name) ? getEntities : batchGet)(store, itemsOf(name, keys), keys, context, fields),
    batchDelete: (name: string, keys: readonly JsonObject[], context: RequestContext) =>
      (inParts(name) ? deleteEntities : batchDelete)(store, itemsOf(name, keys), keys, context),

    /**
     * One page in order. The cursor is checked against its listing (collection, direction, filter).
     * One snapshot means one index, so a page never mixes two maps; the index key is the same
     * in both, so a cursor from before a switch of maps resumes exactly after it.
     */
    async list(name: string, request: PageRequest, context: RequestContext): Promise<Page> {
      const spec = collection(name);
      if (spec.group) {
        throw invalidRequest(
          `collection "${name}" is grouped by "${spec.group.field}": list one group at ` +
            `/collections/${name}/groups/{${spec.group.field}}/items`,
          { group: spec.group.field },
        );
      }
      const { read, pointer } = await maps.snapshot(spec, context);
      return page(spec, read, name, tailsByCollection.of(`${name}/v${pointer.read.version}`), request, context);
    },

    /** One page of one group of a grouped collection: its own shards only (one Query for a cold group). */
    async listGroup(name: string, groupText: string, request: PageRequest, context: RequestContext): Promise<Page> {
      const { spec, group } = groupOf(name, groupText);
      const { read, pointer } = await maps.snapshot(spec, context);
      const view = groupView(read, group);
      const shards = groupShards(read, group);
      // A cold group's one shard has no crossings to foresee: only grown groups keep their shards' tails.
      const tails =
        shards.shards > 1 ? tailsByCollection.of(`${name}/v${pointer.read.version}/${group}`) : new ShardTails();
      const shrinkingTo = shards.phase === 'shrinking' ? shards.writeShards : undefined;
      return page(spec, view, `${name}/groups/${group}`, tails, request, context, shrinkingTo);
    },

    /** A group's shards and phase, as this router routes by them now. */
    async group(name: string, groupText: string, context: RequestContext) {
      const { spec, group } = groupOf(name, groupText);
      const { read } = await maps.snapshot(spec, context);
      return { group, ...groupShards(read, group), revision: read.groups?.revision ?? 0 };
    },
  };

  /** The collection, which must be grouped, and the group a path names, read as its field's type. */
  function groupOf(name: string, groupText: string) {
    const spec = collection(name);
    if (!spec.group) throw invalidRequest(`collection "${name}" is not grouped: list it at /collections/${name}/items`);
    return { spec, group: groupValueFromPath(spec.group, spec.prefix, groupText) };
  }

  /** One page of `view` (a collection, or one group of one); `scopeName` is what its cursors are bound to. */
  async function page(
    spec: CollectionSpec,
    view: RoutedCollection,
    scopeName: string,
    tails: ShardTails,
    request: PageRequest,
    context: RequestContext,
    /** A shrinking group's: the shards it keeps (its others are being emptied onto them). */
    shrinkingTo?: number,
  ): Promise<Page> {
    // Filter values read by the order's field types, strings normalized (core/order-filter.ts).
    const { filter, scope: filterScope } = listingFilter(orderOf(spec), request);
    const scope = { collection: scopeName, direction: request.direction, filter: filterScope };
    const resume = request.cursor === undefined ? undefined : decodeCursor(request.cursor, scope, cursorSecret);
    const attributes =
      request.fields && (spec.parts ? listingProjection(spec, request.fields) : projectionFor(spec, request.fields));
    const base = {
      filter,
      direction: request.direction,
      ...(resume && { after: resume.position }),
      ...(attributes && { attributes }),
    };
    const listing =
      shrinkingTo === undefined
        ? // Shard ends are a map's own: each version keeps its own tails.
          await listPage(
            { store, collection: view, tails, context },
            { ...base, ...(resume?.hint && { hint: resume.hint }) },
            request.limit,
          )
        : await listShrinkingGroup(
            view,
            shrinkingTo,
            (part) => listPage({ store, collection: part, tails: new ShardTails(), context }, base, request.limit),
            request.direction,
            request.limit,
          );
    const next = listing.nextPosition;
    const nextCursor = next === undefined ? null : encodeCursor(next, scope, cursorSecret, listing.nextHint);
    if (!(spec.parts && request.fields)) return { listing, nextCursor };
    const records = await withListedParts(store, spec, listing.records, request.fields, context);
    return { listing: { ...listing, records }, nextCursor };
  }
}

export type Shardline = ReturnType<typeof createShardline>;
