import type { Collection } from '../../src/core/collection';
import { listItems } from '../../src/service/list-items';
import type { DynamoClients } from '../../src/store/client';
import { DynamoStore } from '../../src/store/dynamo-store';
import type { Store } from '../../src/store/store';

/**
 * Sequential round trips to DynamoDB per page: what a page's latency is made of on
 * real DynamoDB, where the shards of a wave are served in parallel by different
 * partitions. (DynamoDB Local serves one query at a time, so there a wave of 21
 * queries costs 21 engine turns as well.) Walks the listing through `listItems` over
 * the real store, counting a new wave whenever a query starts with none in flight.
 */
export async function walkWaves(clients: DynamoClients, collection: Collection, pageSize: number): Promise<number[]> {
  const inner = new DynamoStore(clients, { keyNames: () => collection.primaryKey.map(({ name }) => name) });
  let inFlight = 0;
  let waves = 0;
  const store: Pick<Store, 'queryShard'> = {
    async queryShard(query, context) {
      if (inFlight++ === 0) waves++;
      try {
        return await inner.queryShard(query, context);
      } finally {
        inFlight--;
      }
    },
  };
  const perPage: number[] = [];
  let after: string | undefined;
  for (;;) {
    waves = 0;
    const page = await listItems(store as Store, collection, { filter: { kind: 'all' }, order: 'asc', ...(after !== undefined && { after }) }, pageSize, {});
    perPage.push(waves);
    if (page.nextPosition === undefined) return perPage;
    after = page.nextPosition;
  }
}
