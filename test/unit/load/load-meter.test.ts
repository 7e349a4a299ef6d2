import { describe, expect, it } from 'vitest';
import { fleetLoad } from '../../../src/load/fleet-load';
import { LoadMeter } from '../../../src/load/load-meter';

const MINUTE = 1000;

describe("a router's load meter", () => {
  it('hands over each ended minute once per collection, with its shards and values', () => {
    const meter = new LoadMeter('router-1', MINUTE);
    meter.wrote('albums', 1, 2, 'abba', 1, 100);
    meter.wrote('albums', 1, 2, 'abba', 2, 200);
    meter.queried('albums', 1, 0, 30, 4, ['abba', 'beatles'], 300);
    meter.throttled('albums', 1, 2, 400);
    meter.wrote('albums-hash', 1, 5, 'x', 1, 500);
    expect(meter.take(999)).toEqual([]); // the minute is still under way

    const records = meter.take(1000);
    expect(records.map((r) => r.collection).sort()).toEqual(['albums', 'albums-hash']);
    const albums = records.find((r) => r.collection === 'albums')!;
    expect(albums).toMatchObject({ router: 'router-1', minute: 0, minuteMs: MINUTE, mapVersion: 1, shardCount: 3 });
    expect(albums.figures).toEqual({
      writes: [0, 0, 2],
      writeUnits: [0, 0, 3],
      itemsRead: [30, 0, 0],
      readUnits: [4, 0, 0],
      queries: [1, 0, 0],
      throttles: [0, 0, 1],
    });
    expect(albums.written.counters).toEqual([{ key: 'abba', count: 2, error: 0 }]);
    expect(albums.read.total).toBe(2);
    expect(meter.take(5000)).toEqual([]); // handed over once
  });

  it('starts afresh on a new map version, so no record mixes two maps', () => {
    const meter = new LoadMeter('r', MINUTE);
    meter.wrote('albums', 1, 20, 'a', 1, 100);
    meter.wrote('albums', 2, 4, 'a', 1, 200);
    const records = meter.take(1000);
    expect(records.map((r) => [r.mapVersion, r.shardCount])).toEqual([
      [1, 21],
      [2, 5],
    ]);
  });

  it("two routers' records merge into the fleet's rates", () => {
    const a = new LoadMeter('a', MINUTE);
    const b = new LoadMeter('b', MINUTE);
    for (let i = 0; i < 10; i++) a.wrote('albums', 1, 0, `k${i}`, 1, 1000 + i);
    for (let i = 0; i < 30; i++) b.wrote('albums', 1, 1, 'hot', 1, 1000 + i);
    const load = fleetLoad([...a.take(2000), ...b.take(2000)], {
      collection: 'albums',
      mapVersion: 1,
      shardCount: 2,
      now: 2000,
      minutes: 1,
      minuteMs: MINUTE,
    });
    expect(load.routers).toBe(2);
    expect(load.shards.map((s) => s.writesPerSecond)).toEqual([10, 30]);
    expect(load.hotWrites.keys[0]).toEqual({ key: 'hot', count: 30, error: 0 });
  });
});
