import { describe, expect, it } from 'vitest';
import { autopilotHarness, lastDecision } from '../support/autopilot';
import { ORDERS, type OrdersMinute, ordersRecords, WHALE_SHARD } from '../support/orders-load';

/** Minutes of 10 s: the records are written for chosen minutes, so nothing waits for one to pass. */
const MINUTE_MS = 10_000;
const WINDOW_MINUTES = 3;
const autopilot = { windowMinutes: WINDOW_MINUTES, cooldownMinutes: 0, rate: 100_000 };
/** Two collections of orders by [customerId, orderDate], eight range shards of 50 customers each. */
const CONFIG = { collections: { orders: { ...ORDERS, autopilot }, backfill: { ...ORDERS, autopilot } } };
const FAST = { SHARDLINE_LOAD_RECORDS: 'true', SHARDLINE_LOAD_MINUTE_MS: String(MINUTE_MS) };

/**
 * A whale writing an order a second to a range collection ordered by [customerId, orderDate]:
 * every write lands at the newest end of its customer's range, on one shard. The routers' load
 * records of the last minutes are written to the table as a router writes them (for chosen
 * minutes, so no test waits a window), and one autopilot step (`npm run autopilot -- --once`)
 * decides: no re-cut, and why, in its printed line and in the decision log `--status` reads.
 * The same volume written all over the shard's range (a backfill) is re-cut as before.
 */
describe('the autopilot over time-ordered writes (DynamoDB Local)', () => {
  const harness = autopilotHarness('time-ordered', CONFIG, FAST);
  const { cli, kept } = harness;

  /** The window's minutes and the one under way: a step that starts in the next minute still sees a whole window. */
  const recordLoad = async (collection: string, traffic: OrdersMinute) => {
    const now = Date.now();
    const current = now - (now % MINUTE_MS);
    const minutes = Array.from({ length: WINDOW_MINUTES + 1 }, (_, i) => current - (WINDOW_MINUTES - i) * MINUTE_MS);
    const { service } = harness;
    const spec = service.collections.find((c) => c.name === collection)!;
    const store = service.dynamo.loadStore(3600);
    for (const record of ordersRecords(collection, minutes, MINUTE_MS, () => traffic)) {
      await store.write(spec, record);
    }
  };

  it('decides no re-cut for writes at the newest end of the range, and says why', async () => {
    // One order a second from the whale, five a minute on every shard from the other customers.
    await recordLoad('orders', { whale: 60, background: 5 });
    const decision = lastDecision(await cli(['--once', '--collection', 'orders']));
    expect(decision, JSON.stringify(decision)).toMatchObject({
      action: 'none',
      mapVersion: 1,
      routers: 1,
      newestEnd: { shard: WHALE_SHARD },
    });
    expect(decision.imbalance).toBeGreaterThan(4);
    expect(decision.reason).toMatch(/^writes land at the newest end of the range \(time-ordered keys: \d+% of shard 2/);
    expect(decision.reason).toMatch(/group the collection by its entity field \("group"\) and let hot groups grow$/);
    expect(decision.predictedImbalance).toBeGreaterThan(0.85 * decision.imbalance);

    // Kept: `--status` shows the operator the same reason, and the map is the one it was.
    const { decisions } = await kept('orders');
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ action: 'none', reason: decision.reason, newestEnd: decision.newestEnd });
    expect(await cli(['--status', '--collection', 'orders'])).toContain('writes land at the newest end of the range');
    const collection = await harness.service.app.request('/collections/orders');
    expect(((await collection.json()) as { map: { version: number } }).map.version).toBe(1);
  });

  it('re-cuts the same volume written all over the hot range, as before', async () => {
    // A backfill on the whale's shard: random customers, random past dates.
    await recordLoad('backfill', { spread: 60, background: 5 });
    const decision = lastDecision(await cli(['--once', '--dry-run', '--collection', 'backfill']));
    expect(decision, JSON.stringify(decision)).toMatchObject({ action: 'reshard', dryRun: true });
    expect(decision.reason).toMatch(/^re-cut by load: the largest shard's load down \d+%$/);
    expect(decision.newestEnd).toBeUndefined();
  });
});
