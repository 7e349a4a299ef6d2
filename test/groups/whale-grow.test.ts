import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runReshard, sharedEnv, startRouter, type Router } from '../reshard/processes';
import { shardKeysOfOrders, spread, untilRoutersSee, untilWalked } from './group-placement';
import { type Order, OrderLedger, orderDate, walkOrders, writeOrders } from './order-ledger';
import { startTraffic } from './order-traffic';
import { GROUPS_CONFIG } from './support';

const WHALE = 'whale#1';
const CUSTOMERS = Array.from({ length: 100 }, (_, k) => `c${k}`);
/** Whale orders written through each router once the grow is done: enough to judge the spread. */
const SPREAD_WRITES = 400;

/**
 * A whale grown 1 → 8 shards and shrunk 8 → 2 by `npm run reshard -- --group` in its own process,
 * while two router processes (never restarted) take writes and walks of the whale's group and of
 * small ones. Every walk is held against a ledger of acknowledged writes; the table behind the
 * service is read before and after each change: a grow moves nothing, a shrink empties the
 * dropped shards, and writes after a grow spread over all the new shards.
 */
/** Orders written 100 a batch, one batch after another: each batch must end within one request's deadline. */
async function writeInBatches(base: string, ledger: OrderLedger, orders: readonly Order[]): Promise<void> {
  for (let i = 0; i < orders.length; i += 100) {
    const failed = await writeOrders(base, ledger, orders.slice(i, i + 100));
    if (failed.length > 0) throw new Error(`${failed.length} of a batch not written, ${failed[0]!.pk} first`);
  }
}

/** The seed, written before anything is measured: what a cold engine cuts off is sent again. */
async function seedOrders(base: string, ledger: OrderLedger, orders: readonly Order[]): Promise<void> {
  for (let i = 0; i < orders.length; i += 100) {
    let left = orders.slice(i, i + 100);
    for (let round = 0; left.length > 0; round++) {
      if (round === 5) throw new Error(`the seed's ${left[0]!.pk} was not written in 5 tries`);
      left = await writeOrders(base, ledger, left);
    }
  }
}

describe('a whale grown and shrunk online on DynamoDB Local, two routers', () => {
  it('keeps every walk exact and every write accepted; the grow moves nothing, the shrink empties 2..7', {
    timeout: 240_000,
  }, async () => {
    const endpoint = inject('engines').dynamodbLocal;
    const table = `t-${randomUUID()}`;
    const dir = mkdtempSync(join(tmpdir(), 'shardline-whale-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(GROUPS_CONFIG));
    // Each change waits 3 map TTLs and a deadline (plus 1 s) for every router to see it: about 7.8 s here.
    const env = sharedEnv(endpoint, table, { SHARDLINE_CONFIG: join(dir, 'config.json'), REQUEST_TIMEOUT_MS: '6000' });
    const routers: Router[] = [];
    try {
      routers.push(...(await Promise.all([startRouter(env), startRouter(env)])));
      const bases = routers.map((router) => router.base);
      const ledger = new OrderLedger();
      const seeded = (prefix: string, customerId: string, count: number): Order[] =>
        Array.from({ length: count }, (_, i) => ({ pk: `${prefix}-${i}`, customerId, orderDate: orderDate(i * 11) }));
      const seed = [...seeded('seed-w', WHALE, 300), ...CUSTOMERS.flatMap((c) => seeded(`seed-${c}`, c, 3))];
      await Promise.all(
        bases.map((base, r) =>
          seedOrders(
            base,
            ledger,
            seed.filter((_, i) => i % 2 === r),
          ),
        ),
      );

      const traffic = startTraffic({ bases, ledger, whale: WHALE, customers: CUSTOMERS });
      try {
        await untilWalked(traffic.walks, WHALE, 0, 2);

        // Grow: nothing moves; writes after it spread over the eight shards.
        const beforeGrow = await shardKeysOfOrders(endpoint, table);
        expect(new Set([...beforeGrow].filter(([pk]) => pk.startsWith('seed-w')).map(([, key]) => key))).toEqual(
          new Set([`orders#${WHALE}#0`]),
        );
        const grow = await runReshard(env, ['--collection', 'orders', '--group', WHALE, '--shards', '8', '--yes']).done;
        expect(grow.code, grow.output).toBe(0);
        expect(grow.stdout).toMatch(/stable on 8 shards \(from 1\); 0 items moved/);
        await untilRoutersSee(bases, WHALE, 8);
        const spreadFrom = Date.now();
        await Promise.all(
          bases.map((base, r) =>
            writeInBatches(
              base,
              ledger,
              Array.from({ length: SPREAD_WRITES }, (_, i) => ({
                pk: `g${r}-${i}`,
                customerId: WHALE,
                orderDate: orderDate(i * 7 + r),
              })),
            ),
          ),
        );
        await untilWalked(traffic.walks, WHALE, spreadFrom, 2);
        const afterGrow = await shardKeysOfOrders(endpoint, table);
        const movedByGrow = [...beforeGrow].filter(([pk, key]) => afterGrow.get(pk) !== key);
        expect(movedByGrow.slice(0, 5), `${movedByGrow.length} of ${beforeGrow.size} orders moved`).toEqual([]);
        const newWhaleKeys = [...afterGrow]
          .filter(([pk]) => ledger.get(pk)?.customerId === WHALE && ledger.get(pk)!.sent >= spreadFrom)
          .map(([, key]) => key);
        expect(newWhaleKeys.length).toBeGreaterThanOrEqual(2 * SPREAD_WRITES);
        const grown = spread(newWhaleKeys, 8);
        expect([...grown.perShard.keys()].sort()).toEqual(Array.from({ length: 8 }, (_, s) => `orders#${WHALE}#${s}`));
        expect(grown.overFair, JSON.stringify([...grown.perShard])).toBeLessThan(1.6);
        expect(grown.underFair, JSON.stringify([...grown.perShard])).toBeLessThan(1.6);

        // Shrink: writes go to 0..1 first, then every order on 2..7 moves there; walks stay exact.
        const dropped = new Set([2, 3, 4, 5, 6, 7].map((s) => `orders#${WHALE}#${s}`));
        const onDropped = [...afterGrow.values()].filter((key) => dropped.has(key)).length;
        const shrink = await runReshard(env, ['--collection', 'orders', '--group', WHALE, '--shards', '2', '--yes'])
          .done;
        expect(shrink.code, shrink.output).toBe(0);
        const moved = Number(/; (\d+) items moved/.exec(shrink.stdout)?.[1]);
        expect(moved, shrink.stdout).toBeGreaterThanOrEqual(onDropped);
        await untilRoutersSee(bases, WHALE, 2);
        await untilWalked(traffic.walks, WHALE, Date.now(), 1);
      } finally {
        await traffic.stop();
      }

      // At rest: the whale and a few small groups walked once more through both routers, whole.
      const last = await Promise.all(
        [WHALE, ...CUSTOMERS.slice(0, 3)].map((c) => walkOrders(bases, ledger, c, c === WHALE ? 100 : 2)),
      );
      for (const walk of last) {
        expect(walk.problems.slice(0, 5), walk.customerId).toEqual([]);
        expect(walk.items).toBe(ledger.acked(walk.customerId).length);
      }
      expect(traffic.failures.slice(0, 5), `${traffic.failures.length} requests failed`).toEqual([]);
      const walks = [...traffic.walks, ...last];
      const wrong = walks.filter((walk) => walk.problems.length > 0);
      expect(wrong.map((w) => `${w.customerId} (${w.phase}): ${w.problems.slice(0, 5).join('; ')}`)).toEqual([]);
      const whaleWalks = walks.filter((walk) => walk.customerId === WHALE);
      const phases = new Set(whaleWalks.map((walk) => walk.phase));
      // Walks ran while routers read the grown shards but wrote the old one, and while the shrink moved orders.
      expect(phases.has('growing'), [...phases].join(', ')).toBe(true);
      const duringMoves = whaleWalks.filter((walk) => walk.phase === 'shrinking' && walk.end > walk.settlesAt);
      expect(duringMoves.length, [...phases].join(', ')).toBeGreaterThan(0);
      const small = walks.filter((walk) => walk.customerId !== WHALE);
      expect(small.length).toBeGreaterThan(10);
      expect(new Set(small.flatMap((walk) => walk.queries))).toEqual(new Set([1]));

      const settled = await shardKeysOfOrders(endpoint, table);
      const whaleKeys = new Set([...settled].filter(([pk]) => ledger.get(pk)?.customerId === WHALE).map(([, k]) => k));
      expect(whaleKeys).toEqual(new Set([`orders#${WHALE}#0`, `orders#${WHALE}#1`]));
      const lost = [...CUSTOMERS, WHALE].flatMap((c) => ledger.acked(c)).filter((order) => !settled.has(order.pk));
      expect(lost.map((order) => order.pk).slice(0, 5)).toEqual([]);
    } finally {
      await Promise.all(routers.map((router) => router.stop()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
