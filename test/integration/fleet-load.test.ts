import { DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { get, post } from '../support/http';
import { expireLoadRecords } from '../../src/store/bootstrap';
import { TestClock } from '../support/clock';
import { ENGINES, startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';

/** A whole minute, as in production: the routers' clock (the test's) passes it, nothing waits it out. */
const MINUTE_MS = 60_000;
const LOAD = { SHARDLINE_LOAD_MINUTE_MS: String(MINUTE_MS), SHARDLINE_LOAD_RECORDS: 'true' };
const album = (router: string, i: number, title: string) => ({ pk: `${router}${i}`, sk: 'album', title });

/**
 * Two routers over one table, each writing its minute's load records (docs/autopilot.md), and
 * GET /collections/{c}/load on either merging both: every write counted once, on the
 * shard it went to, the hot key named.
 */
describe.each(ENGINES)("the fleet's load on %s", (engine) => {
  let a: Awaited<ReturnType<typeof startTestService>>;
  let b: Awaited<ReturnType<typeof startTestService>>;
  // A minute behind: the writes fall in a minute the clock then ends by moving on to the present.
  const clock = new TestClock(MINUTE_MS);
  beforeAll(async () => {
    a = await startTestService(engine, { env: LOAD, now: clock.now });
    b = await startTestService(engine, { env: { ...LOAD, TABLE_NAME: a.table }, now: clock.now });
  });

  it('merges every router: writes counted once per shard, the hot key first, records that expire', async () => {
    const fromA = Array.from({ length: 60 }, (_, i) => album('a', i, i < 30 ? 'Greatest Hits' : `Album ${i}`));
    const fromB = Array.from({ length: 40 }, (_, i) => album('b', i, i < 20 ? 'Greatest Hits' : `Record ${i}`));
    expect((await post(a.app, '/collections/albums/items/batch', { items: fromA })).body.written).toBe(60);
    expect((await post(b.app, '/collections/albums/items/batch', { items: fromB })).body.written).toBe(40);
    expect((await get(b.app, '/collections/albums/items?limit=10')).status).toBe(200);
    // One title looked up again and again: the fleet's hottest read.
    for (const router of [a, b, a]) {
      expect((await get(router.app, '/collections/albums/items?key=Record%2025&limit=5')).body.items).toHaveLength(1);
    }
    // Both routers' minutes end, and each writes its records once.
    clock.advance(MINUTE_MS);
    expect(a.load!.due()).toBe(true);
    expect(await a.load!.flush()).toBeGreaterThanOrEqual(1);
    expect(await b.load!.flush()).toBeGreaterThanOrEqual(1);
    expect(await a.load!.flush()).toBe(0);

    const load = await get(a.app, '/collections/albums/load?minutes=20');
    expect(load.status, JSON.stringify(load.body)).toBe(200);
    const body = load.body;
    expect(body).toMatchObject({ collection: 'albums', mapVersion: 1, shardCount: 21, routers: 2 });
    const writes = body.shards.reduce((sum: number, s: { writesPerSecond: number }) => sum + s.writesPerSecond, 0);
    expect(Math.round(writes * body.windowSeconds)).toBe(100);
    // "greatest hits" went to one shard (range strategy): 50 writes there.
    const route = await get(a.app, '/collections/albums/route?key=Greatest%20Hits');
    const hotShard = body.shards[route.body.shards[0]];
    expect(Math.round(hotShard.writesPerSecond * body.windowSeconds)).toBeGreaterThanOrEqual(50);
    expect(body.hotWrites.keys[0]).toMatchObject({ key: 'greatest hits', count: 50 });
    expect(body.hotReads.keys[0]).toMatchObject({ key: 'record 25', count: 3 });
    expect(
      body.shards.reduce((n: number, s: { queriesPerSecond: number }) => n + s.queriesPerSecond, 0),
    ).toBeGreaterThan(0);
    expect((await get(a.app, '/collections/albums/load?minutes=0')).status).toBe(400);
    expect((await get(a.app, '/collections/nope/load')).status).toBe(404);

    // The records sit in the reserved key space with an expiry a day out; tables shardline made expire them.
    const rows = (await scanTable(inject('engines')[engine], a.table, { reserved: true })).filter((row) => row.loadOf);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      expect(Number(row._ttl) - Date.now() / 1000).toBeGreaterThan(23.9 * 3600);
    }
    if (engine === 'dynamodbLocal') {
      const ttl = await a.dynamo.clients.raw.send(new DescribeTimeToLiveCommand({ TableName: a.table }));
      expect(ttl.TimeToLiveDescription).toMatchObject({ AttributeName: '_ttl', TimeToLiveStatus: 'ENABLED' });
      // Two routers started at once on a missing table both turn TTL on; the second must start all the same.
      await expect(expireLoadRecords(a.dynamo.clients.raw, a.table)).resolves.toBeUndefined();
    }
  });
});
