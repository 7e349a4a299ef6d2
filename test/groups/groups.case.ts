import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { compareKeys } from '../../src/core/collation';
import type { EngineEndpoints } from '../support/global-setup';
import { call, get, post, put } from '../support/http';
import { startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';
import { GROUPS_CONFIG, resize, TRICKY_GROUPS, walkGroup } from './support';

type Service = Awaited<ReturnType<typeof startTestService>>;

/** Dates of a customer's orders: day `i` of 2026, so order by date is order by i. */
const date = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);

/**
 * Grouped collections as a user meets them: an index per group, one Query for a cold group,
 * groups that never meet however their values are spelled, and a group grown and shrunk with
 * its listing exact.
 */
export function groupsSuite(engine: keyof EngineEndpoints): void {
  describe(`grouped collections on ${engine}`, () => {
    let service: Service;
    beforeAll(async () => {
      // A short map TTL: a resize's settle time (300 ms here) covers three of them, as in production.
      service = await startTestService(engine, { config: GROUPS_CONFIG, env: { SHARDLINE_MAP_TTL_MS: '50' } });
    });
    afterAll(() => service?.dynamo.destroy());

    it('lists each group on its own, one Query a page, newest first, whatever the group value holds', async () => {
      const items = TRICKY_GROUPS.flatMap((customerId, g) =>
        Array.from({ length: 2 + (g % 4) }, (_, i) => ({
          pk: `order-${g}-${i}`,
          sk: 'order',
          customerId,
          orderDate: date((i * 7 + g) % 30),
        })),
      );
      const answer = await post(service.app, '/collections/orders/items/batch', { items });
      expect(answer.status).toBe(200);
      for (const customerId of TRICKY_GROUPS) {
        const expected = items
          .filter((item) => item.customerId === customerId)
          .sort((a, b) => compareKeys(b.orderDate, a.orderDate) || compareKeys(a.pk, b.pk))
          .map((item) => item.pk);
        const walked = await walkGroup(service, 'orders', customerId, 'limit=2');
        expect(walked.items.map((item) => item.pk)).toEqual(expected);
        expect(new Set(walked.queries)).toEqual(new Set([1]));
      }
    });

    it('keeps number groups apart by value, 1.50 and 1.5 being one group', async () => {
      const projects = [1, 1.5, -3, 10, 0.001, 123456789012345];
      for (const [i, projectId] of projects.entries()) {
        expect(
          (
            await put(service.app, '/collections/tickets/items', {
              pk: `t${i}`,
              sk: 'ticket',
              projectId,
              title: `t${i}`,
            })
          ).status,
        ).toBe(201);
      }
      expect(
        (await put(service.app, '/collections/tickets/items', { pk: 't9', sk: 'ticket', projectId: 1.5, title: 'z' }))
          .status,
      ).toBe(201);
      const oneAndAHalf = await walkGroup(service, 'tickets', '1.50');
      expect(oneAndAHalf.items.map((item) => item.pk)).toEqual(['t1', 't9']);
      for (const [i, projectId] of projects.entries()) {
        if (projectId === 1.5) continue;
        const walked = await walkGroup(service, 'tickets', String(projectId));
        expect(walked.items.map((item) => item.pk)).toEqual([`t${i}`]);
      }
      const bad = await get(service.app, '/collections/tickets/groups/abc/items');
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/projectId/);
    });

    it('refuses what a grouped collection cannot take, naming the group', async () => {
      const missing = await put(service.app, '/collections/orders/items', {
        pk: 'o1',
        sk: 'order',
        orderDate: date(1),
      });
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toMatch(/customerId/);
      const wrongType = await put(service.app, '/collections/orders/items', {
        pk: 'o1',
        sk: 'order',
        customerId: 7,
        orderDate: date(1),
      });
      expect(wrongType.status).toBe(400);
      const listing = await get(service.app, '/collections/orders/items');
      expect(listing.status).toBe(400);
      expect(listing.body.error.message).toContain('/collections/orders/groups/{customerId}/items');
      const notGrouped = await get(service.app, '/collections/albums/groups/x/items');
      expect(notGrouped.status).toBe(400);
      const unknown = await get(service.app, '/collections/nope/groups/x/items');
      expect(unknown.status).toBe(404);
    });

    it('moves an item to its new group when a patch changes the group, and deletes as usual', async () => {
      await put(service.app, '/collections/orders/items', {
        pk: 'mover',
        sk: 'order',
        customerId: 'from',
        orderDate: date(3),
      });
      const patched = await call(service.app, 'PATCH', '/collections/orders/item?pk=mover&sk=order', {
        customerId: 'to',
      });
      expect(patched.status).toBe(200);
      expect((await walkGroup(service, 'orders', 'from')).items).toEqual([]);
      expect((await walkGroup(service, 'orders', 'to')).items.map((item) => item.pk)).toEqual(['mover']);
      expect((await call(service.app, 'DELETE', '/collections/orders/item?pk=mover&sk=order')).status).toBe(204);
      expect((await walkGroup(service, 'orders', 'to')).items).toEqual([]);
      const cursorOfOther = await get(service.app, '/collections/orders/groups/c/items?limit=1');
      const crossed = await get(
        service.app,
        `/collections/orders/groups/c%231/items?cursor=${encodeURIComponent(cursorOfOther.body.nextCursor)}`,
      );
      expect(crossed.status).toBe(400);
      expect(crossed.body.error.code).toBe('invalid_cursor');
    });

    it('grows a group without moving an item, spreads new writes, and shrinks it back exactly', async () => {
      const whale = 'whale#1';
      // Every item must land: what a failed item's batch leaves out, the placement checks would miss.
      const write = async (from: number, to: number) => {
        const answer = await post(service.app, '/collections/orders/items/batch', {
          items: Array.from({ length: to - from }, (_, k) => ({
            pk: `w${from + k}`,
            sk: 'order',
            customerId: whale,
            orderDate: date((from + k) % 300),
          })),
        });
        expect(answer.status).toBe(200);
        expect(answer.body.failed).toEqual([]);
      };
      await write(0, 40);
      const shardKeys = async () =>
        new Map(
          (await scanTable(inject('engines')[engine], service.table))
            .filter((item) => item.customerId === whale)
            .map((item) => [item.pk as string, item.gsi1pk as string]),
        );
      const before = await shardKeys();
      expect(new Set(before.values())).toEqual(new Set([`orders#${whale}#0`]));

      const grown = await resize(service, 'orders', whale, 8);
      expect(grown).toMatchObject({ from: 1, to: 8, moved: 0, queries: 0 });
      const group = await get(service.app, `/collections/orders/groups/${encodeURIComponent(whale)}`);
      expect(group.body).toMatchObject({ shards: 8, writeShards: 8, phase: 'stable' });
      await write(40, 840);
      const after = await shardKeys();
      for (const [pk, key] of before) expect(after.get(pk)).toBe(key);
      const perShard = new Map<string, number>();
      for (const [pk, key] of after) if (!before.has(pk)) perShard.set(key, (perShard.get(key) ?? 0) + 1);
      expect(perShard.size).toBe(8);
      expect(Math.max(...perShard.values())).toBeLessThan(1.6 * 100);
      const expected = [...after.keys()].sort((a, b) => {
        const da = date(Number(a.slice(1)) % 300);
        const db = date(Number(b.slice(1)) % 300);
        // Newest first; one day's orders by key.
        return compareKeys(db, da) || compareKeys(a, b);
      });
      expect((await walkGroup(service, 'orders', whale, 'limit=100')).items.map((item) => item.pk)).toEqual(expected);
      // Other groups are still one Query a page.
      expect(new Set((await walkGroup(service, 'orders', 'c')).queries)).toEqual(new Set([1]));

      const shrunk = await resize(service, 'orders', whale, 2);
      expect(shrunk.moved).toBeGreaterThan(500);
      const settled = await shardKeys();
      expect(new Set(settled.values())).toEqual(new Set([`orders#${whale}#0`, `orders#${whale}#1`]));
      expect((await walkGroup(service, 'orders', whale, 'limit=100')).items.map((item) => item.pk)).toEqual(expected);
    });
  });
}
