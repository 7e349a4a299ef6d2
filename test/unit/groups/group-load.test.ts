import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { SpaceSaving } from '../../../src/core/space-saving';
import { fleetLoad } from '../../../src/load/fleet-load';
import { cutToBytes, groupRate } from '../../../src/load/group-sketch';
import { LoadMeter } from '../../../src/load/load-meter';
import { GROUP_KEYS, GROUP_SKETCH_BYTES, type LoadRecord } from '../../../src/load/load-record';
import { checkLoadRecord } from '../../../src/load/load-record-check';
import { LoadRecorder } from '../../../src/service/metrics/load-recorder';
import type { LoadStore } from '../../../src/store/load-store';

const MINUTE = 60_000;
const window = (minutes: number, now: number) => ({
  collection: 'orders',
  mapVersion: 1,
  shardCount: 1,
  now,
  minutes,
  minuteMs: MINUTE,
});

describe('load records count writes per group in bounded memory', () => {
  it('keeps at most GROUP_KEYS groups of 60,000 written, the hot one among them within its bounds', () => {
    const meter = new LoadMeter('r', MINUTE);
    for (let i = 0; i < 60_000; i++) {
      meter.wrote('orders', 1, i % 4, 'v', 2, 100, `customer-${i}`);
      // Every twentieth write is the whale's: 3,000 of 63,000.
      if (i % 20 === 0) meter.wrote('orders', 1, 0, 'v', 2, 100, 'whale');
    }
    const [record] = meter.take(MINUTE);
    const groups = record!.groups!;
    expect(groups.writes.counters.length).toBeLessThanOrEqual(GROUP_KEYS);
    expect(groups.writeUnits.total).toBe(63_000 * 2);
    const whale = groups.writes.counters.find((counter) => counter.key === 'whale')!;
    expect(whale.count - whale.error).toBeLessThanOrEqual(3000);
    expect(whale.count).toBeGreaterThanOrEqual(3000);
    // The record stays small, reads back as it was written, and takes no write samples for groups.
    const text = JSON.stringify(record);
    expect(text.length).toBeLessThan(20_000);
    expect(checkLoadRecord(text, { collection: 'orders', minute: 0 })).toEqual(record);
    expect(record!.writeSamples!.flat()).toEqual([]);
  });

  it('cuts a sketch of long group values to its bytes, its bounds kept', () => {
    const sketch = new SpaceSaving(GROUP_KEYS);
    for (let g = 0; g < 150; g++) sketch.add(`${'x'.repeat(2000)}${g}`, 1000 - g);
    const cut = cutToBytes(sketch.summary(), GROUP_SKETCH_BYTES);
    expect(cut.counters.length).toBe(cut.capacity);
    expect(cut.capacity).toBeLessThan(GROUP_KEYS);
    expect(JSON.stringify(cut).length).toBeLessThan(GROUP_SKETCH_BYTES);
    // A dropped group's count is at most the smallest kept one: what a full sketch charges an absent key.
    const smallest = cut.counters.at(-1)!.count;
    const dropped = sketch.top().slice(cut.capacity);
    expect(dropped.every((counter) => counter.count <= smallest)).toBe(true);
    expect(cutToBytes(cut, GROUP_SKETCH_BYTES)).toBe(cut);
  });

  it('merges group sketches over routers and minutes; records without groups still read', () => {
    const records: LoadRecord[] = [];
    for (const router of ['a', 'b']) {
      for (let minute = 0; minute < 3; minute++) {
        const meter = new LoadMeter(router, MINUTE);
        for (let i = 0; i < 60; i++)
          meter.wrote('orders', 1, 0, 'v', 2, minute * MINUTE, i % 3 === 0 ? 'hot' : `c${i}`);
        records.push(...meter.take((minute + 1) * MINUTE));
      }
    }
    const old = new LoadMeter('old', MINUTE);
    old.wrote('orders', 1, 0, 'v', 2, 0);
    const [oldRecord] = old.take(MINUTE);
    expect(oldRecord!.groups).toBeUndefined();
    expect(checkLoadRecord(JSON.stringify(oldRecord), { collection: 'orders', minute: 0 })).toEqual(oldRecord);

    const load = fleetLoad([...records, oldRecord!], window(3, 3 * MINUTE));
    // 2 routers × 3 minutes × 20 writes of 2 units, over 180 s.
    expect(groupRate(load.groups!.writeUnits, 'hot', load.windowSeconds)).toEqual({
      atMost: 240 / 180,
      atLeast: 240 / 180,
      tracked: true,
    });
    expect(load.groups!.writes.keys[0]).toEqual({ key: 'hot', count: 120, error: 0 });
    expect(load.routers).toBe(3);
    // A minute alone has its own groups; a window with no group written has none.
    const minute = fleetLoad(records, window(1, MINUTE));
    expect(minute.groups!.writes.keys[0]).toEqual({ key: 'hot', count: 40, error: 0 });
    expect(fleetLoad([oldRecord!], window(1, MINUTE)).groups).toBeUndefined();
  });

  it("a router keeps a grouped collection's figures in shard 0, with its groups", async () => {
    const collections = resolveConfig({
      collections: {
        orders: { group: 'customerId', order: [{ field: 'orderDate' }], strategy: { kind: 'random', shards: 2 } },
      },
    });
    const written: LoadRecord[] = [];
    const store = { write: async (_: unknown, record: LoadRecord) => void written.push(record) };
    let now = 0;
    const recorder = new LoadRecorder(store as unknown as LoadStore, collections, MINUTE, () => now);
    recorder.recorder.shardWritten('orders', 3, '2026', 'c1');
    recorder.recorder.shardWritten('orders', 1, '2026', 'c2');
    recorder.recorder.shardQueried('orders', 2, 10);
    recorder.recorder.shardThrottled('orders', 1);
    now = MINUTE;
    await recorder.flush();
    expect(written).toHaveLength(1);
    expect(written[0]!.figures).toMatchObject({ writes: [2], writeUnits: [4], queries: [1], throttles: [1] });
    expect(written[0]!.groups!.writes.counters.map((counter) => counter.key).sort()).toEqual(['c1', 'c2']);
  });
});
