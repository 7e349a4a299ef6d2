import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resize as resizeInMap } from '../../src/core/group-map';
import type { EngineEndpoints } from '../support/global-setup';
import { get, post } from '../support/http';
import { startTestService } from '../support/service';
import { GROUPS_CONFIG, resize } from './support';

type Service = Awaited<ReturnType<typeof startTestService>>;

/**
 * What the service says of a grouped collection, its group map read from the table: the collection's
 * description (grouped by what, its default, how many groups are off it), a key's route in one group's own
 * shard keys (never the collection's `<prefix>#<n>`), and /stats with the group map, largest groups first.
 * Ungrouped collections answer as before: no group anywhere.
 */
export function groupRoutesSuite(engine: keyof EngineEndpoints): void {
  describe(`a grouped collection described, routed and counted on ${engine}`, () => {
    let service: Service;
    beforeAll(async () => {
      service = await startTestService(engine, { config: GROUPS_CONFIG, env: { SHARDLINE_MAP_TTL_MS: '50' } });
    });
    afterAll(() => service?.dynamo.destroy());

    it('describes the grouping, and how many groups are off the default as the group map changes', async () => {
      const fresh = await get(service.app, '/collections/orders');
      expect(fresh.status).toBe(200);
      expect(fresh.body).toMatchObject({ strategy: 'random', shardCount: 1 });
      expect(fresh.body.group).toEqual({
        field: 'customerId',
        type: 'string',
        defaultShards: 1,
        groupsOffDefault: 0,
        revision: 0,
      });
      expect((await get(service.app, '/collections/tickets')).body.group).toMatchObject({
        field: 'projectId',
        type: 'number',
      });
      expect((await get(service.app, '/collections/albums')).body).not.toHaveProperty('group');
      const listed = await get(service.app, '/collections');
      const byName = new Map(listed.body.collections.map((c: { name: string }) => [c.name, c]));
      expect(byName.get('orders')).toEqual(fresh.body);

      await resize(service, 'orders', 'whale', 4);
      await resize(service, 'orders', 'mid', 2);
      const revision = (await get(service.app, '/collections/orders/groups/mid')).body.revision;
      expect((await get(service.app, '/collections/orders')).body.group).toEqual({
        field: 'customerId',
        type: 'string',
        defaultShards: 1,
        groupsOffDefault: 2,
        revision,
      });
      // Back on the default, a group leaves the map.
      await resize(service, 'orders', 'mid', 1);
      expect((await get(service.app, '/collections/orders')).body.group.groupsOffDefault).toBe(1);
    });

    it("routes a key within a group's own shard keys, and asks for the group", async () => {
      const route = (path: string) => get(service.app, `/collections/${path}`);
      const unnamed = await route('orders/route?key=2026-01-01');
      expect(unnamed.status).toBe(400);
      expect(unnamed.body.error.message).toMatch(/grouped by "customerId".*group=/);
      const whale = await route('orders/route?key=2026-01-01&group=whale');
      expect(whale.status).toBe(200);
      expect(whale.body).toEqual({
        normalized: expect.any(String),
        shards: [0, 1, 2, 3],
        shardKeys: [0, 1, 2, 3].map((shard) => `orders#whale#${shard}`),
        spread: true,
      });
      const cold = await route(`orders/route?key=2026-01-01&group=${encodeURIComponent('c#1')}`);
      expect(cold.body).toMatchObject({ shards: [0], shardKeys: ['orders#c#1#0'], spread: false });
      // A number group in its one spelling; a value of the wrong type is refused.
      const ticket = await route('tickets/route?key=t&group=1.50');
      expect(ticket.body.shardKeys).toEqual(['tickets#1.5#0']);
      expect((await route('tickets/route?key=t&group=abc')).status).toBe(400);
      const ungrouped = await route('albums/route?key=x&group=c');
      expect(ungrouped.status).toBe(400);
      expect(ungrouped.body.error.message).toMatch(/not grouped/);
      expect((await route('albums/route?key=x')).body.shardKeys).toEqual([expect.stringMatching(/^albums#\d+$/)]);
    });

    it('adds the group map to /stats, the groups with the most shards first, each with its phase', async () => {
      const spec = service.collections.find((c) => c.name === 'orders')!;
      const maps = service.dynamo.mapStore;
      const [map] = await maps.readGroupMaps([spec], {});
      // A grow under way (as a resize leaves it until it settles), written as `npm run reshard -- --group` does.
      const growing = resizeInMap(map!, 'rising', 3, 1, Date.now(), 3_600_000);
      expect(await maps.replaceGroupMap(spec, growing, {})).toBe(true);
      const items = Array.from({ length: 6 }, (_, i) => ({
        pk: `s${i}`,
        sk: 'order',
        customerId: i % 2 ? 'whale' : 'c',
        orderDate: '2026-02-01',
      }));
      expect((await post(service.app, '/collections/orders/items/batch', { items })).body.failed).toEqual([]);

      // The router reads the map again within its TTL.
      await expect
        .poll(async () => (await get(service.app, '/collections/orders/stats')).body.groups?.groupsOffDefault)
        .toBe(2);
      const stats = await get(service.app, '/collections/orders/stats');
      expect(stats.status).toBe(200);
      expect(stats.body.groups).toMatchObject({
        field: 'customerId',
        type: 'string',
        defaultShards: 1,
        revision: growing.revision,
      });
      expect(stats.body.groups.groups).toEqual([
        { group: 'whale', shards: 4, writeShards: 4, phase: 'stable', changedAt: expect.any(Number) },
        { group: 'rising', shards: 3, writeShards: 1, phase: 'growing', changedAt: expect.any(Number) },
      ]);
      expect(stats.body.sinceStart.writes).toBeGreaterThanOrEqual(6);
      expect((await get(service.app, '/collections/albums/stats')).body).not.toHaveProperty('groups');
    });
  });
}
