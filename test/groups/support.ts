import type { RoutedCollection } from '../../src/core/collection';
import { resizeGroup } from '../../src/reshard/group-resize';
import type { Service } from '../../src/runtime/service';
import { get } from '../support/http';

/** Customers and their orders, newest first (the seed's example); projects by number. */
export const GROUPS_CONFIG = {
  collections: {
    orders: { group: 'customerId', order: [{ field: 'orderDate', direction: 'desc' }] },
    tickets: { group: { field: 'projectId', type: 'number' }, field: 'title', normalization: 'none' },
    albums: { field: 'title', strategy: { kind: 'hash', shards: 4 } },
  },
};

/** Group values that would meet in a careless encoding: separators, digits, non-ASCII. */
export const TRICKY_GROUPS = ['c', 'c#1', 'c#1#0', 'c/2', '1', 'ß', '😀', 'c ', '#', '\uE000', 'c#'];

export interface GroupPage {
  readonly items: Record<string, unknown>[];
  readonly queries: number[];
}

/** Every item of one group by walking its pages; each page's x-shard-queries kept. */
export async function walkGroup(
  service: Pick<Service, 'app'>,
  collection: string,
  group: string,
  query = 'limit=3',
): Promise<GroupPage> {
  const items: Record<string, unknown>[] = [];
  const queries: number[] = [];
  let cursor: string | null = null;
  do {
    const path: string =
      `/collections/${collection}/groups/${encodeURIComponent(group)}/items?${query}` +
      (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');
    const page = await get(service.app, path);
    if (page.status !== 200) throw new Error(`${path}: ${page.status} ${JSON.stringify(page.body)}`);
    items.push(...page.body.items);
    queries.push(Number(page.headers.get('x-shard-queries')));
    cursor = page.body.nextCursor;
  } while (cursor);
  return { items, queries };
}

/** Resizes a group as `npm run reshard -- --group` does, with a short settle time. */
export async function resize(service: Service, collection: string, group: string, shards: number, settleMs = 300) {
  const spec = service.collections.find((c) => c.name === collection)!;
  const { read } = await service.maps.snapshot(spec, {});
  return resizeGroup(
    {
      mapStore: service.dynamo.mapStore,
      queryShard: (query, context) => service.dynamo.items.queryShard(query, context),
      updateAttributes: (update, context) => service.dynamo.items.updateAttributes(update, context),
      collection: read as RoutedCollection,
      settleMs,
    },
    group,
    shards,
  );
}
