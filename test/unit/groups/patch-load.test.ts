import { describe, expect, it } from 'vitest';
import { firstMapOf } from '../../../src/core/collection';
import { resolveConfig } from '../../../src/config/config';
import { NO_METRICS } from '../../../src/service/metrics/recorder';
import { RequestTally } from '../../../src/service/metrics/request-tally';
import { patchItem } from '../../../src/service/patch-item';
import type { Store } from '../../../src/store/store';

const [orders] = resolveConfig({
  collections: { orders: { group: 'customerId', order: [{ field: 'orderDate', direction: 'desc' }] } },
});

/** A store holding one order of customer c1, taking every update. */
function storeWithOneOrder(): Store {
  const stored = {
    pk: 'o1',
    sk: 'order',
    customerId: 'c1',
    orderDate: '2026-01-01',
    gsi1pk: 'orders#c1#0',
    gsi1sk: 'x',
    _etag: 'e',
  };
  const never = () => Promise.reject(new Error('not called'));
  return {
    getItem: async () => stored,
    updateItem: async () => ({ applied: true }),
    putItem: async () => ({ applied: true }),
    queryShard: never,
    batchGet: never,
    deleteItem: never,
    queryKeyRange: never,
    ping: never,
  };
}

describe('a patch in a grouped collection', () => {
  it('counts as a write of its group, so a group busy with patches does not look cold', async () => {
    const written: (string | undefined)[] = [];
    const tally = new RequestTally({ ...NO_METRICS, shardWritten: (_c, _s, _v, group) => void written.push(group) });
    const key = { pk: 'o1', sk: 'order' };
    await patchItem(storeWithOneOrder(), [firstMapOf(orders!)], key, { customerId: 'c2' }, { tally });
    expect(written).toEqual(['c2']);
    expect(tally.itemsWritten).toBe(1);
  });
});
