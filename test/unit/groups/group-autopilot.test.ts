import { describe, expect, it } from 'vitest';
import { decideGroups, type GroupStepInputs, MAX_GROUP_RESIZES } from '../../../src/autopilot/decide-groups';
import { lastResizes } from '../../../src/autopilot/group-step';
import { DEFAULT_AUTOPILOT } from '../../../src/config/autopilot-config';
import type { AutopilotConfig } from '../../../src/core/collection';
import { EMPTY_GROUP_MAP, type GroupMap, type GroupShards } from '../../../src/core/group-map';
import { fleetLoad } from '../../../src/load/fleet-load';
import { LoadMeter } from '../../../src/load/load-meter';
import type { KeptDecision } from '../../../src/store/decision-log';

const MINUTE = 60_000;
const NOW = 1000 * MINUTE;
const WINDOW = 3;
const SETTLE_MS = 20_000;
/** Cooldown counted in minutes of MINUTE; the bar is 0.5 of 1,000 WCU: 500 write units a second a shard. */
const CONFIG: AutopilotConfig = { ...DEFAULT_AUTOPILOT, windowMinutes: WINDOW, cooldownMinutes: 30, maxShards: 8 };

/** Write units a write stands for here: large, so a test's hot groups take few calls. */
const UNITS_PER_WRITE = 20;

/**
 * A window in which each group writes `unitsPerSecond(group, minute)` write units a second,
 * recorded by two routers that share the writes.
 */
function loadOf(unitsPerSecond: (group: string, minute: number) => number, groups: readonly string[]) {
  const routers = [new LoadMeter('a', MINUTE), new LoadMeter('b', MINUTE)];
  for (let m = 0; m < WINDOW; m++) {
    const at = NOW - (WINDOW - m) * MINUTE;
    for (const group of groups) {
      const writes = Math.round((unitsPerSecond(group, m) * 60) / UNITS_PER_WRITE);
      for (let i = 0; i < writes; i++) routers[i % 2]!.wrote('orders', 1, 0, `v${i}`, UNITS_PER_WRITE, at, group);
    }
  }
  const records = routers.flatMap((meter) => meter.take(NOW));
  const shape = { collection: 'orders', mapVersion: 1, shardCount: 1, minuteMs: MINUTE };
  return {
    window: fleetLoad(records, { ...shape, now: NOW, minutes: WINDOW }),
    minutes: Array.from({ length: WINDOW }, (_, m) =>
      fleetLoad(records, { ...shape, now: NOW - (WINDOW - m - 1) * MINUTE, minutes: 1 }),
    ),
  };
}

const stable = (shards: number, changedAt: number): GroupShards => ({
  shards,
  writeShards: shards,
  phase: 'stable',
  changedAt,
  settleMs: SETTLE_MS,
});
const mapOf = (entries: Record<string, GroupShards>): GroupMap => ({
  revision: 3,
  groups: new Map(Object.entries(entries)),
});

function inputs(
  load: ReturnType<typeof loadOf>,
  groups: GroupMap = EMPTY_GROUP_MAP,
  more: Partial<GroupStepInputs> = {},
) {
  return {
    ...load,
    groups,
    defaultShards: 1,
    lastResizedAt: new Map(),
    now: NOW,
    minuteMs: MINUTE,
    settleMs: SETTLE_MS,
    ...more,
  } satisfies GroupStepInputs;
}

const LONG_AGO = NOW - 500 * MINUTE;
const customers = Array.from({ length: 50 }, (_, i) => `c${i}`);

describe('the autopilot for grouped collections: the group rule', () => {
  it('grows the hot group ×2 and no other', () => {
    // c0 at 800 units/s (over 500 on its one shard); c1 at 450 (under); the rest at 5.
    const load = loadOf((group) => (group === 'c0' ? 800 : group === 'c1' ? 450 : 5), customers);
    const decision = decideGroups(inputs(load), CONFIG);
    expect(decision.action).toBe('resize');
    expect(decision.groups).toEqual([
      expect.objectContaining({ group: 'c0', action: 'grow', shards: 1, to: 2, writeUnitsPerSecond: 800 }),
    ]);
    expect(decision.reason).toMatch(/^1 group\(s\) resized: "c0" 1 → 2 \(hot: at least 800 write units\/s, over 500/);
    expect(decision.largestShare).toBeCloseTo(0.8, 2);
  });

  it('grows a grown group again only past the bar for every shard it has', () => {
    const load = loadOf((group) => (group === 'c0' ? 900 : group === 'c1' ? 1100 : 5), customers);
    const decision = decideGroups(inputs(load, mapOf({ c0: stable(2, LONG_AGO), c1: stable(2, LONG_AGO) })), CONFIG);
    expect(decision.groups?.map((c) => [c.group, c.action, c.shards, c.to])).toEqual([['c1', 'grow', 2, 4]]);
  });

  it('holds a hot group at maxShards, and says so', () => {
    const load = loadOf((group) => (group === 'c0' ? 1200 : 5), customers);
    const decision = decideGroups(inputs(load, mapOf({ c0: stable(2, LONG_AGO) })), { ...CONFIG, maxShards: 2 });
    expect(decision.action).toBe('none');
    expect(decision.groups).toEqual([expect.objectContaining({ group: 'c0', action: 'hold', shards: 2, to: 2 })]);
    expect(decision.reason).toMatch(/^group "c0" left on 2 shard\(s\): hot: .*at the most shards allowed$/);
  });

  it('shrinks a grown group cold a whole window ÷2, never below the default, and keeps a warm one', () => {
    // c0 on 4 shards at 10 units/s: under a quarter of 500 for each of the 2 it keeps. c1 on 2 at 10: to 1.
    // c2 on 4, cold but for one minute at 300 (over 250 = ¼ × 500 × 2): kept. c3 on 2 with the default at 2.
    const load = loadOf((group, minute) => (group === 'c2' && minute === 1 ? 300 : 10), customers);
    const map = mapOf({ c0: stable(4, LONG_AGO), c1: stable(2, LONG_AGO), c2: stable(4, LONG_AGO) });
    const decision = decideGroups(inputs(load, map), CONFIG);
    expect(decision.groups?.map((c) => [c.group, c.action, c.shards, c.to])).toEqual([
      ['c0', 'shrink', 4, 2],
      ['c1', 'shrink', 2, 1],
    ]);
    expect(decision.groups![0]!.why).toMatch(
      /^cold a whole window: at most 10 write units\/s a minute, under 250 on 2$/,
    );
    const onTwo = decideGroups(inputs(load, mapOf({ c3: stable(2, LONG_AGO) }), { defaultShards: 2 }), CONFIG);
    expect(onTwo.groups).toBeUndefined();
    expect(onTwo).toMatchObject({ action: 'none', calm: true });
  });

  it('leaves a group alone within its cooldown, from the group map or from the decision log', () => {
    const recently = NOW - 10 * MINUTE;
    // c0 was grown 10 minutes ago (in the map); c1 was shrunk back to its default 10 minutes ago (in the log).
    const load = loadOf((group) => (group === 'c0' ? 1600 : group === 'c1' ? 800 : 5), customers);
    const cooling = inputs(load, mapOf({ c0: stable(2, recently), c2: stable(4, recently) }), {
      lastResizedAt: new Map([['c1', recently]]),
    });
    const held = decideGroups(cooling, CONFIG);
    expect(held.action).toBe('none');
    expect(held.groups?.map((c) => [c.group, c.action])).toEqual([
      ['c0', 'hold'],
      ['c1', 'hold'],
    ]);
    expect(held.groups![0]!.why).toMatch(/cooling down after its last resize \(30 min\)$/);
    // c2 is cold on 4 shards but in its cooldown too: no shrink. After the cooldown all three move.
    const later = decideGroups({ ...cooling, now: recently + 30 * MINUTE }, CONFIG);
    expect(later.groups?.map((c) => [c.group, c.action, c.to])).toEqual([
      ['c0', 'grow', 4],
      ['c1', 'grow', 2],
      ['c2', 'shrink', 2],
    ]);
    expect(later.action).toBe('resize');
  });

  it('finishes a change whose run died, and starts at most MAX_GROUP_RESIZES a step', () => {
    const hot = customers.slice(0, MAX_GROUP_RESIZES + 2);
    const load = loadOf((group) => (hot.includes(group) ? 700 : 5), customers);
    const dead: GroupShards = {
      shards: 2,
      writeShards: 1,
      phase: 'growing',
      changedAt: NOW - 3 * SETTLE_MS,
      settleMs: SETTLE_MS,
    };
    const alive: GroupShards = { ...dead, changedAt: NOW - SETTLE_MS };
    const decision = decideGroups(inputs(load, mapOf({ x: dead, y: alive })), CONFIG);
    const started = decision.groups!.filter((c) => c.action !== 'hold');
    expect(started).toHaveLength(MAX_GROUP_RESIZES);
    expect(started[0]).toMatchObject({ group: 'x', action: 'resume', shards: 1, to: 2 });
    const held = decision.groups!.filter((c) => c.action === 'hold');
    expect(held).toHaveLength(3);
    expect(held[0]!.why).toMatch(/the next step \(8 a step\)$/);
    expect(decision.reason).toMatch(/; 3 group\(s\) held$/);
  });

  it('decides nothing without load records, and reads the cooldown of groups from kept decisions', () => {
    const none = loadOf(() => 0, []);
    expect(decideGroups(inputs(none, mapOf({ c0: stable(4, LONG_AGO) })), CONFIG)).toMatchObject({
      action: 'none',
      reason: expect.stringMatching(/^no load records in the window/),
    });
    const change = (group: string, action: 'grow' | 'hold') => ({ group, action, shards: 1, to: 2 });
    const kept = [
      { at: '2026-01-01T00:00:00.000Z', groups: [change('a', 'grow'), change('b', 'hold')] },
      { at: '2026-01-01T00:05:00.000Z', dryRun: true, groups: [change('c', 'grow')] },
      { at: '2026-01-01T00:09:00.000Z', groups: [change('a', 'grow')] },
    ] as unknown as KeptDecision[];
    expect(lastResizes(kept)).toEqual(new Map([['a', Date.parse('2026-01-01T00:09:00.000Z')]]));
  });
});
