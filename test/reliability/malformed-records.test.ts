import { beforeAll, describe, expect, inject, it } from 'vitest';
import { LoadMeter } from '../../src/load/load-meter';
import { CheckpointStore } from '../../src/store/checkpoints';
import { deleteBehindTheBack, putBehindTheBack } from '../support/behind-the-back';
import { TestClock } from '../support/clock';
import { get } from '../support/http';
import { ENGINES, startTestService } from '../support/service';

const MINUTE = 60_000;
const MAP_TTL_MS = 50;
const MAP_TTL = { SHARDLINE_MAP_TTL_MS: String(MAP_TTL_MS) };

/** A record as a router writes it for `minute`: one throttle on shard 0. */
function routerRecord(router: string, minute: number) {
  const meter = new LoadMeter(router, MINUTE);
  meter.wrote('albums', 1, 0, 'blue', 1, minute);
  meter.throttled('albums', 1, 0, minute);
  return meter.take(minute + MINUTE)[0]!;
}

/**
 * shardline's own records written straight into the table (forged, damaged), bypassing the API: its readers
 * treat each as absent (logged), never a 500, a crash or a number in the fleet's load; the router starts.
 */
describe.each(ENGINES)("malformed records of shardline's own on %s", (engine) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  const endpoint = () => inject('engines')[engine];
  const clock = new TestClock();
  beforeAll(async () => {
    service = await startTestService(engine, { env: { SHARDLINE_LOAD_RECORDS: 'true', ...MAP_TTL }, now: clock.now });
  });

  it('leaves GET /load a 200 with none of their numbers, and the collection serving', async () => {
    const now = Date.now();
    const minute = now - (now % MINUTE) - MINUTE;
    const pk = `__shardline#load#albums#${minute}`;
    const valid = routerRecord('forger', minute);
    const item = (sk: string, record: unknown) => ({
      pk,
      sk,
      loadOf: 'albums',
      record: typeof record === 'string' ? record : JSON.stringify(record),
    });
    const forged = [
      item('bad-json', '{"collection":'),
      item('capacity-0', { ...valid, router: 'capacity-0', written: { ...valid.written, capacity: 0 } }),
      item('negative', { ...valid, router: 'negative', figures: { ...valid.figures, throttles: [-50] } }),
      item('wrong-minute', { ...valid, router: 'wrong-minute', minute: minute - MINUTE }),
      item('wrong-collection', { ...valid, router: 'wrong-collection', collection: 'albums-hash' }),
      // Well formed, but not under its router's key: no router wrote it there.
      item('someone-else', valid),
      { pk, sk: 'not-a-string', loadOf: 'albums', record: 12 },
    ];
    await putBehindTheBack(endpoint(), service.table, forged);

    const load = await get(service.app, '/collections/albums/load?minutes=3');
    expect(load.status, JSON.stringify(load.body)).toBe(200);
    expect(load.body).toMatchObject({ records: 0, routers: 0 });
    for (const shard of load.body.shards) expect(shard).toMatchObject({ throttles: 0, writesPerSecond: 0 });
    const store = service.dynamo.loadStore(0);
    expect(await store.read(service.collections[0]!, [minute])).toEqual([]);

    // The same record under its router's key is read, figures as written.
    await putBehindTheBack(endpoint(), service.table, [item('forger', valid)]);
    expect(await store.read(service.collections[0]!, [minute])).toEqual([valid]);
    expect((await get(service.app, '/collections/albums/items?limit=3')).status).toBe(200);
  });

  it('serves the others past a malformed pointer; a new router starts past a missing version', async () => {
    const table = service.table;
    await putBehindTheBack(endpoint(), table, [
      { pk: '__shardline#map#albums-hash', sk: 'pointer', mapOf: 'albums-hash', revision: 1, pointer: '{"rev' },
    ]);
    await deleteBehindTheBack(endpoint(), table, [{ pk: '__shardline#map#albums-random', sk: 'v1' }]);
    // Past the router's TTL on its own clock: the next request reads the pointers again.
    clock.advance(2 * MAP_TTL_MS);
    expect((await get(service.app, '/collections/albums/items?limit=3')).status).toBe(200);
    const broken = await get(service.app, '/collections/albums-hash/items?limit=3');
    expect(broken.status).toBe(503);
    expect(broken.body.error.message).toContain('albums-hash');

    const fresh = await startTestService(engine, { env: { TABLE_NAME: table, ...MAP_TTL } });
    expect((await get(fresh.app, '/collections/albums/items?limit=3')).status).toBe(200);
    expect((await get(fresh.app, '/collections/albums-random/items?limit=3')).status).toBe(503);
    expect((await get(fresh.app, '/collections/albums-hash/items?limit=3')).status).toBe(503);
    // The pointer was never overwritten: an operator's repair is still possible from what is there.
  });

  it('reads a forged or damaged follower checkpoint as absent', async () => {
    const doc = service.dynamo.clients.doc;
    const checkpoints = new CheckpointStore(doc, service.collections[0]!, '*', 'label');
    await checkpoints.write('shard-ok', { done: false, sequence: '1234' });
    const key = (shard: string) => ({ pk: `__shardline#follow#*#label#${shard}`, sk: 'checkpoint' });
    await putBehindTheBack(endpoint(), service.table, [
      { ...key('shard-a'), shard: 'shard-a', done: 'yes' },
      { ...key('shard-b'), shard: 'shard-ok', done: true },
      { ...key('shard-c'), shard: 'shard-c', done: false, sequence: 'AFTER everything' },
    ]);
    const read = await checkpoints.read(['shard-ok', 'shard-a', 'shard-b', 'shard-c']);
    expect([...read]).toEqual([['shard-ok', { done: false, sequence: '1234' }]]);
  });
});
