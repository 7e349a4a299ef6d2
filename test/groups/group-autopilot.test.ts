import { describe, expect, it } from 'vitest';
import { LoadMeter } from '../../src/load/load-meter';
import { autopilotHarness, lastDecision } from '../support/autopilot';
import { get, post } from '../support/http';
import { walkGroup } from './support';

/** Minutes of 10 s: the records are written for chosen minutes, so nothing waits for one to pass. */
const MINUTE_MS = 10_000;
const WINDOW_MINUTES = 3;
const CONFIG = {
  collections: {
    orders: {
      group: 'customerId',
      order: [{ field: 'orderDate', direction: 'desc' }],
      autopilot: { windowMinutes: WINDOW_MINUTES, cooldownMinutes: 0 },
    },
  },
};
/** A map TTL of 50 ms and a deadline of 2 s: a group's settle time is 3 TTLs + a deadline + 1 s, about 3 s. */
const FAST = {
  SHARDLINE_LOAD_RECORDS: 'true',
  SHARDLINE_LOAD_MINUTE_MS: String(MINUTE_MS),
  SHARDLINE_MAP_TTL_MS: '50',
};
/** Write units a second per group: the whale over the bar (0.5 × 1,000 a shard), a warm one under it. */
const TRAFFIC: Record<string, number> = { whale: 800, warm: 400, c0: 5, c1: 5, c2: 5, c3: 5 };
const UNITS_PER_WRITE = 20;

const date = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);

/**
 * The autopilot over a grouped collection on DynamoDB Local: the routers' load records of the last
 * minutes are written to the table as a router writes them (for chosen short minutes, so no test
 * waits a window), and one step (`npm run autopilot -- --once`) grows the hot group and no other.
 */
describe('the autopilot for a grouped collection (DynamoDB Local)', () => {
  const harness = autopilotHarness('group-autopilot', CONFIG, FAST, { cliEnv: { REQUEST_TIMEOUT_MS: '2000' } });
  const { cli, kept } = harness;

  it('one autopilot step with shortened minutes grows the hot group and no other', async () => {
    const { service } = harness;
    const items = Object.keys(TRAFFIC).flatMap((customerId) =>
      Array.from({ length: 5 }, (_, i) => ({ pk: `${customerId}-${i}`, sk: 'order', customerId, orderDate: date(i) })),
    );
    expect((await post(service.app, '/collections/orders/items/batch', { items })).status).toBe(200);

    // The window's minutes and the one under way: a step that starts in the next minute still sees a whole window.
    const now = Date.now();
    const current = now - (now % MINUTE_MS);
    const spec = service.collections.find((c) => c.name === 'orders')!;
    const store = service.dynamo.loadStore(3600);
    for (let back = WINDOW_MINUTES; back >= 0; back--) {
      const minute = current - back * MINUTE_MS;
      const meter = new LoadMeter('router-a', MINUTE_MS);
      for (const [group, units] of Object.entries(TRAFFIC)) {
        const writes = (units * MINUTE_MS) / 1000 / UNITS_PER_WRITE;
        for (let i = 0; i < writes; i++) meter.wrote('orders', 1, 0, date(i), UNITS_PER_WRITE, minute, group);
      }
      for (const record of meter.take(minute + MINUTE_MS)) await store.write(spec, record);
    }

    const decision = lastDecision(await cli(['--once', '--collection', 'orders']));
    expect(decision, JSON.stringify(decision)).toMatchObject({ action: 'resize', routers: 1 });
    expect(decision.groups).toEqual([
      expect.objectContaining({
        group: 'whale',
        action: 'grow',
        shards: 1,
        to: 2,
        writeUnitsPerSecond: 800,
        done: true,
      }),
    ]);
    expect(decision.reason).toMatch(/^1 group\(s\) resized: "whale" 1 → 2 \(hot: at least 800 write units\/s/);

    // The group map after the step: the whale on two shards, settled; every other group on the default.
    const whale = await get(service.app, '/collections/orders/groups/whale');
    expect(whale.body).toMatchObject({ group: 'whale', shards: 2, writeShards: 2, phase: 'stable' });
    expect(whale.body.load.writeUnitsPerSecond).toBeGreaterThanOrEqual(800);
    expect(whale.body.load.partitionShare).toBeGreaterThan(0.39);
    for (const group of Object.keys(TRAFFIC).filter((g) => g !== 'whale')) {
      expect((await get(service.app, `/collections/orders/groups/${group}`)).body).toMatchObject({ shards: 1 });
      // Still one Query a page, and every item there.
      const walked = await walkGroup(service, 'orders', group, 'limit=10');
      expect(walked.queries).toEqual([1]);
      expect(walked.items).toHaveLength(5);
    }
    const grown = await walkGroup(service, 'orders', 'whale', 'limit=10');
    expect(grown.items.map((item) => item.pk).sort()).toEqual(Array.from({ length: 5 }, (_, i) => `whale-${i}`));
    expect(grown.queries).toEqual([2]);

    // Kept: `--status` shows which group and what its resize did.
    const { decisions } = await kept('orders');
    expect(decisions.at(-1)).toMatchObject({ action: 'resize', groups: [{ group: 'whale', to: 2, done: true }] });
    expect(await cli(['--status', '--collection', 'orders'])).toContain('(1 of 1 group resizes finished)');
  });
});
