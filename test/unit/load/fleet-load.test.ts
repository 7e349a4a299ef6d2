import { describe, expect, it } from 'vitest';
import { SpaceSaving } from '../../../src/core/space-saving';
import { fleetLoad } from '../../../src/load/fleet-load';
import type { LoadRecord } from '../../../src/load/load-record';

const MINUTE = 60_000;
const NOW = 100 * MINUTE;

function sketchOf(keys: Record<string, number>, capacity = 4) {
  const sketch = new SpaceSaving(capacity);
  for (const [key, count] of Object.entries(keys)) sketch.add(key, count);
  return sketch.summary();
}

function record(router: string, minutesAgo: number, writeUnits: number[], extra: Partial<LoadRecord> = {}): LoadRecord {
  const zeros = writeUnits.map(() => 0);
  return {
    collection: 'albums',
    router,
    minute: NOW - minutesAgo * MINUTE,
    minuteMs: MINUTE,
    mapVersion: 2,
    shardCount: writeUnits.length,
    figures: {
      writes: writeUnits,
      writeUnits,
      itemsRead: zeros,
      readUnits: zeros,
      queries: zeros,
      throttles: zeros,
    },
    written: sketchOf({}),
    read: sketchOf({}),
    ...extra,
  };
}

const window = { collection: 'albums', mapVersion: 2, shardCount: 3, now: NOW, minutes: 10, minuteMs: MINUTE };

describe("the fleet's load", () => {
  it('adds every router and minute of the window, as rates over the whole window', () => {
    const load = fleetLoad(
      [record('a', 1, [60_000, 6000, 0]), record('b', 1, [60_000, 0, 0]), record('a', 10, [480_000, 0, 0])],
      window,
    );
    expect(load.routers).toBe(2);
    expect(load.records).toBe(3);
    expect(load.windowSeconds).toBe(600);
    expect(load.shards.map((s) => s.writeUnitsPerSecond)).toEqual([1000, 10, 0]);
    // Shard 0 writes a partition's 1,000 WCU: at its limit.
    expect(load.shards[0]!.partitionShare).toBe(1);
    expect(load.imbalance).toBeCloseTo(1 / ((1 + 0.01) / 3), 10);
  });

  it('leaves out minutes outside the window, other maps and other collections', () => {
    const load = fleetLoad(
      [
        record('a', 11, [600, 0, 0]), // began before the window
        record('a', 0, [600, 0, 0]), // still running
        record('a', 2, [600, 0, 0], { mapVersion: 1 }),
        record('a', 2, [600, 0, 0], { collection: 'albums-hash' }),
      ],
      window,
    );
    expect(load.records).toBe(0);
    expect(load.imbalance).toBeNull();
    expect(load.shards.every((s) => s.partitionShare === 0)).toBe(true);
  });

  it("merges the routers' hot keys with their error bounds", () => {
    const load = fleetLoad(
      [
        record('a', 1, [1, 1, 1], { written: sketchOf({ x: 50, y: 30, z: 5, w: 1, v: 1 }) }),
        record('b', 1, [1, 1, 1], { written: sketchOf({ x: 40, q: 25 }) }),
      ],
      window,
    );
    const [first, second] = load.hotWrites.keys;
    expect(first).toMatchObject({ key: 'x', count: 90 });
    expect(second!.key).toBe('y');
    expect(load.hotWrites.total).toBe(50 + 30 + 5 + 1 + 1 + 40 + 25);
    // Every true count lies within [count − error, count]; a key left out was seen at most errorBound times.
    const truth: Record<string, number> = { x: 90, y: 30, q: 25, z: 5, w: 1, v: 1 };
    for (const hit of load.hotWrites.keys) {
      expect(truth[hit.key]).toBeLessThanOrEqual(hit.count);
      expect(truth[hit.key]).toBeGreaterThanOrEqual(hit.count - hit.error);
    }
    const listed = new Set(load.hotWrites.keys.map((hit) => hit.key));
    for (const [key, count] of Object.entries(truth)) {
      if (!listed.has(key)) expect(count).toBeLessThanOrEqual(load.hotWrites.errorBound);
    }
  });
});
