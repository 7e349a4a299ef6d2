import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTOPILOT } from '../../../src/config/autopilot-config';
import { decide, type StepInputs } from '../../../src/autopilot/decide';
import { gainBar, reshardStreak, streakAfterStep } from '../../../src/autopilot/rising-bar';
import { seededRandom } from '../../../devtools/random';
import { resolveConfig } from '../../../src/config/config';
import { fleetLoad } from '../../../src/load/fleet-load';
import { LoadMeter } from '../../../src/load/load-meter';

const MINUTE = 60_000;
const NOW = 1000 * MINUTE;
const WINDOW = DEFAULT_AUTOPILOT.windowMinutes;

/**
 * A window of minutes in which `writes(minute, shard)` writes land on each shard, some of
 * them of `hotKey`; `throttles` on shard 0 in every minute when asked.
 */
function loadOf(
  shards: number,
  writes: (minute: number, shard: number) => number,
  options: { hotKey?: (minute: number) => number; throttled?: boolean; minutes?: number } = {},
) {
  const minutes = options.minutes ?? WINDOW;
  const meter = new LoadMeter('router', MINUTE);
  for (let m = 0; m < minutes; m++) {
    const at = NOW - (minutes - m) * MINUTE;
    for (let shard = 0; shard < shards; shard++) {
      // Two units a write, as the router counts them (src/service/metrics/load-recorder.ts).
      const count = writes(m, shard);
      for (let i = 0; i < count; i++) meter.wrote('c', 1, shard, `k${shard}-${i % 50}`, 2, at);
    }
    for (let i = 0; i < (options.hotKey?.(m) ?? 0); i++) meter.wrote('c', 1, 0, 'hot', 2, at);
    if (options.throttled) meter.throttled('c', 1, 0, at);
  }
  const records = meter.take(NOW);
  const window = { collection: 'c', mapVersion: 1, shardCount: shards, minuteMs: MINUTE };
  return {
    window: fleetLoad(records, { ...window, now: NOW, minutes }),
    minutes: Array.from({ length: minutes }, (_, m) =>
      fleetLoad(records, { ...window, now: NOW - (minutes - m - 1) * MINUTE, minutes: 1 }),
    ),
  };
}

const inputs = (strategy: StepInputs['strategy'], shards: number, load: ReturnType<typeof loadOf>): StepInputs => ({
  strategy,
  shardCount: shards,
  ...load,
  resharding: false,
  lastReshardAt: undefined,
  now: NOW,
  minuteMs: MINUTE,
  streak: 0,
});

/** Poisson-like counts around `mean`. */
function noisy(random: () => number, mean: number): number {
  let count = 0;
  for (let i = 0; i < mean * 2; i++) if (random() < 0.5) count++;
  return count;
}

describe('an autopilot step', () => {
  it('leaves steady, evenly spread load alone, whatever the chance variation (range, hash, random)', () => {
    // 2,500 writes a minute a shard: busy enough not to shrink, far from a partition's limit.
    for (let seed = 1; seed <= 10; seed++) {
      const random = seededRandom(seed);
      const load = loadOf(8, () => noisy(random, 2500));
      for (const strategy of ['range', 'hash', 'random'] as const) {
        const decision = decide(inputs(strategy, 8, load), DEFAULT_AUTOPILOT);
        expect(decision.action, `seed ${seed} ${strategy}: ${decision.reason}`).toBe('none');
      }
    }
  });

  it('leaves a quiet range collection alone: at a few writes a minute, chance alone makes shards uneven', () => {
    let unevenEnough = 0; // where minGain alone would have re-cut
    for (let seed = 1; seed <= 30; seed++) {
      const random = seededRandom(seed);
      const load = loadOf(21, () => noisy(random, 0.5));
      const decision = decide(inputs('range', 21, load), DEFAULT_AUTOPILOT);
      if (decision.imbalance! > 1 / (1 - DEFAULT_AUTOPILOT.minGain)) unevenEnough++;
      expect(decision.action, `seed ${seed}: ${decision.reason}`).toBe('none');
    }
    expect(unevenEnough).toBeGreaterThanOrEqual(20);
  });

  it('re-cuts a range collection whose writes all land on one shard, predicting an even spread', () => {
    const load = loadOf(8, (_, shard) => (shard === 3 ? 800 : 10));
    const decision = decide(inputs('range', 8, load), DEFAULT_AUTOPILOT);
    expect(decision).toMatchObject({ action: 'reshard', target: { kind: 'range', shards: 8 } });
    expect(decision.imbalance!).toBeGreaterThan(5);
    expect(decision.predictedImbalance!).toBeCloseTo(1, 5);
    expect(decision.reason).toMatch(/re-cut by load/);
  });

  it('does not act on an imbalance a new map would barely cut (hysteresis), during a reshard or its cooldown', () => {
    const mild = loadOf(8, (_, shard) => (shard === 3 ? 120 : 100));
    expect(decide(inputs('range', 8, mild), DEFAULT_AUTOPILOT).action).toBe('none');
    const hot = loadOf(8, (_, shard) => (shard === 3 ? 800 : 10));
    expect(decide({ ...inputs('range', 8, hot), resharding: true }, DEFAULT_AUTOPILOT).reason).toBe(
      'a reshard is running',
    );
    const justDone = { ...inputs('range', 8, hot), lastReshardAt: NOW - 59 * MINUTE };
    expect(decide(justDone, DEFAULT_AUTOPILOT).reason).toMatch(/cooling down/);
    expect(decide({ ...justDone, lastReshardAt: NOW - 61 * MINUTE }, DEFAULT_AUTOPILOT).action).toBe('reshard');
    const early = loadOf(8, (_, shard) => (shard === 3 ? 800 : 10), { minutes: 4 });
    expect(decide(inputs('range', 8, early), DEFAULT_AUTOPILOT).reason).toMatch(/not a whole window/);
  });

  it('acts on throttles even where the counts look modest', () => {
    const load = loadOf(8, (_, shard) => (shard === 0 ? 130 : 100), { throttled: true });
    const decision = decide(inputs('range', 8, load), DEFAULT_AUTOPILOT);
    expect(decision).toMatchObject({ action: 'reshard', reason: expect.stringMatching(/throttled/) });
  });

  it('grows hash shards when a shard stays over its share every minute, within maxShards', () => {
    // 40,000 writes a minute per shard at 2 units: 1,333 WCU, over half a partition.
    const busy = loadOf(4, () => 20_000);
    const grown = decide(inputs('hash', 4, busy), DEFAULT_AUTOPILOT);
    expect(grown).toMatchObject({ action: 'reshard', target: { kind: 'hash' } });
    expect(grown.target!.shards).toBeGreaterThanOrEqual(8);
    expect(grown.predictedLargestShare!).toBeLessThan(grown.largestShare / 2 + 1e-9);
    const capped = decide(inputs('hash', 4, busy), { ...DEFAULT_AUTOPILOT, maxShards: 4 });
    expect(capped).toMatchObject({ action: 'none', reason: 'at the most shards allowed (4)' });
    // One minute under the threshold: not "throughout the window".
    const dip = loadOf(4, (m) => (m === 5 ? 100 : 20_000));
    expect(decide(inputs('hash', 4, dip), DEFAULT_AUTOPILOT).action).toBe('none');
  });

  it('says a single key hotter than a shard cannot be spread by hash shards, and range spreads it', () => {
    const hot = loadOf(4, () => 100, { hotKey: () => 40_000 });
    const hash = decide(inputs('hash', 4, hot), DEFAULT_AUTOPILOT);
    expect(hash).toMatchObject({ action: 'none', reason: expect.stringMatching(/one key is hotter/) });
    const range = decide(inputs('range', 4, hot), DEFAULT_AUTOPILOT);
    expect(range.action).toBe('reshard');
    // The key spread over a run of shards: the largest shard near the mean.
    expect(range.predictedImbalance!).toBeLessThan(1.5);
  });

  it('shrinks an idle hash or random collection, never below minShards', () => {
    const idle = loadOf(16, () => 1);
    expect(decide(inputs('random', 16, idle), DEFAULT_AUTOPILOT)).toMatchObject({
      action: 'reshard',
      target: { kind: 'random', shards: 8 },
    });
    expect(decide(inputs('hash', 16, idle), { ...DEFAULT_AUTOPILOT, minShards: 12 }).target).toEqual({
      kind: 'hash',
      shards: 12,
    });
    expect(decide(inputs('hash', 2, idle), { ...DEFAULT_AUTOPILOT, minShards: 2 }).action).toBe('none');
  });
});

describe('the rising bar after reshards in a row', () => {
  const hot = loadOf(8, (_, shard) => (shard === 3 ? 800 : 10));

  it('doubles the predicted gain a reshard needs with each reshard in a row', () => {
    expect([0, 1, 2].map((streak) => gainBar(0.25, streak))).toEqual([0.25, 0.5, 1]);
    // One shard of 8 hot: a re-cut predicts its load down about 87%, enough twice, never a third time.
    const first = decide(inputs('range', 8, hot), DEFAULT_AUTOPILOT);
    expect(first).toMatchObject({ action: 'reshard', bar: 0.25 });
    expect(decide({ ...inputs('range', 8, hot), streak: 1 }, DEFAULT_AUTOPILOT)).toMatchObject({
      action: 'reshard',
      bar: 0.5,
    });
    const third = decide({ ...inputs('range', 8, hot), streak: 2 }, DEFAULT_AUTOPILOT);
    expect(third).toMatchObject({
      action: 'none',
      bar: 1,
      heldBack: true,
      reason: expect.stringMatching(/^held back/),
    });
    // A gain between minGain and the raised bar: held back at the second, taken at the first.
    const mild = loadOf(8, (_, shard) => (shard === 3 ? 140 : 100));
    const taken = decide(inputs('range', 8, mild), { ...DEFAULT_AUTOPILOT, minGain: 0.15 });
    expect(taken.action).toBe('reshard');
    expect(decide({ ...inputs('range', 8, mild), streak: 1 }, { ...DEFAULT_AUTOPILOT, minGain: 0.15 }).heldBack).toBe(
      true,
    );
  });

  it('holds back throttled relief and hash growth too, but not an idle collection shrinking', () => {
    const throttled = loadOf(8, (_, shard) => (shard === 0 ? 130 : 100), { throttled: true });
    expect(decide({ ...inputs('range', 8, throttled), streak: 2 }, DEFAULT_AUTOPILOT).heldBack).toBe(true);
    const busy = loadOf(4, () => 20_000);
    expect(decide({ ...inputs('hash', 4, busy), streak: 2 }, DEFAULT_AUTOPILOT).heldBack).toBe(true);
    const idle = loadOf(16, () => 1);
    expect(decide({ ...inputs('random', 16, idle), streak: 2 }, DEFAULT_AUTOPILOT).action).toBe('reshard');
  });

  it('ends the streak only when calm steps in a row span a whole window', () => {
    const at = (ms: number) => new Date(ms).toISOString();
    // The first calm step after two reshards: the calm begins, the streak holds.
    const first = streakAfterStep([{ streak: 2 }], true, 10_000, 6000);
    expect(first).toEqual({ streak: 2, calmSince: at(10_000) });
    // Calm for less than the window: held; a step not calm starts it over.
    expect(streakAfterStep([{ streak: 2, calmSince: at(10_000) }], true, 14_000, 6000).streak).toBe(2);
    expect(streakAfterStep([{ streak: 2, calmSince: at(10_000) }], false, 14_000, 6000)).toEqual({ streak: 2 });
    // Calm a whole window: the streak ends.
    expect(streakAfterStep([{ streak: 2, calmSince: at(10_000) }], true, 16_000, 6000)).toEqual({
      streak: 0,
      calmSince: at(10_000),
    });
    // A dry run's calm counts for nothing.
    expect(
      streakAfterStep([{ streak: 1 }, { streak: 0, dryRun: true, calmSince: at(0) }], true, 9000, 6000).streak,
    ).toBe(1);
  });

  it('keeps the streak until a step finds the map balanced over a whole window', () => {
    expect(reshardStreak([])).toBe(0);
    expect(reshardStreak([{ streak: 1 }, { streak: 2 }])).toBe(2);
    // A dry run is not the autopilot's act.
    expect(reshardStreak([{ streak: 2 }, { streak: 0, dryRun: true }])).toBe(2);
    // What the step keeps: the map's first window not whole yet, or a reshard held back, keeps the
    // streak; a whole window found balanced ends it.
    const even = loadOf(8, () => 100);
    expect(decide({ ...inputs('range', 8, hot), streak: 2 }, DEFAULT_AUTOPILOT).calm).toBeUndefined();
    expect(decide({ ...inputs('range', 8, even), streak: 2 }, DEFAULT_AUTOPILOT)).toMatchObject({
      reason: 'balanced enough',
      calm: true,
    });
    const waiting = { ...inputs('range', 8, even), lastReshardAt: NOW - 2 * MINUTE, streak: 1 };
    expect(decide(waiting, { ...DEFAULT_AUTOPILOT, cooldownMinutes: 0 }).calm).toBeUndefined();
  });

  it("counts the cooldown and the new map's first window in the fleet's minutes (SHARDLINE_LOAD_MINUTE_MS)", () => {
    // One-second minutes: a cooldown of 60 "minutes" is 60 s, not an hour.
    const second = 1000;
    const config = { ...DEFAULT_AUTOPILOT, cooldownMinutes: 60 };
    const reshardedAgo = (ms: number) => ({ ...inputs('range', 8, hot), minuteMs: second, lastReshardAt: NOW - ms });
    expect(decide(reshardedAgo(59 * second), config).reason).toMatch(/cooling down/);
    expect(decide(reshardedAgo(61 * second), config).action).toBe('reshard');
    // Cooldown 0: still a whole window of the new map's own load first.
    const noCooldown = { ...DEFAULT_AUTOPILOT, cooldownMinutes: 0 };
    expect(decide(reshardedAgo(5 * second), noCooldown).reason).toMatch(/not a whole window of load under the new map/);
    expect(decide(reshardedAgo(11 * second), noCooldown).action).toBe('reshard');
  });
});

describe('the autopilot config', () => {
  const spec = (autopilot: unknown) => ({
    collections: { albums: { field: 'title', strategy: { kind: 'hash', shards: 4 }, autopilot } },
  });

  it('takes the documented defaults for what it leaves out, and refuses what it does not know', () => {
    const [collection] = resolveConfig(spec({ minGain: 0.4 }));
    expect(collection!.autopilot).toEqual({ ...DEFAULT_AUTOPILOT, minGain: 0.4 });
    expect(DEFAULT_AUTOPILOT).toEqual({
      maxPartitionShare: 0.5,
      minGain: 0.25,
      windowMinutes: 10,
      cooldownMinutes: 60,
      minShards: 1,
      maxShards: 256,
      rate: 500,
    });
    expect(() => resolveConfig(spec({ maxShard: 9 }))).toThrow(/maxShard/);
    expect(resolveConfig(spec(undefined))[0]!.autopilot).toBeUndefined();
  });
});
