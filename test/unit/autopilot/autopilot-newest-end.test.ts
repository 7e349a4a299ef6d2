import { describe, expect, it } from 'vitest';
import { decide, type StepInputs } from '../../../src/autopilot/decide';
import { DEFAULT_AUTOPILOT } from '../../../src/config/autopilot-config';
import { type OrdersMinute, ordersWindow, MINUTE, NOW, WHALE_SHARD } from '../../support/orders-load';

const inputs = (load: ReturnType<typeof ordersWindow>): StepInputs => ({
  strategy: 'range',
  shardCount: 8,
  ...load,
  resharding: false,
  lastReshardAt: undefined,
  now: NOW,
  minuteMs: MINUTE,
  streak: 0,
});
const step = (traffic: (minute: number) => OrdersMinute) => decide(inputs(ordersWindow(traffic)), DEFAULT_AUTOPILOT);

const GROUP = /no re-cut spreads them: group the collection by its entity field \("group"\) and let hot groups grow/;

/**
 * The rule (docs/autopilot.md): writes that keep landing past every earlier write of their key
 * range stay on one shard whatever boundaries a re-cut draws among the values written so far. The
 * largest such stream is load no re-cut moves: the predicted largest shard is at least its load, and
 * a re-cut that gains less than `minGain` so is not run — the decision says why and points to grouping.
 */
describe('an autopilot step over time-ordered writes', () => {
  it('does not re-cut a whale whose orders land at the newest end, and says why', () => {
    // The user's case: one customer an order a second, a few orders a minute on every other shard.
    const decision = step(() => ({ whale: 60, background: 5 }));
    expect(decision.imbalance!).toBeGreaterThan(4);
    expect(decision.action).toBe('none');
    expect(decision.reason).toMatch(/^writes land at the newest end of the range \(time-ordered keys: \d+% of shard 2/);
    expect(decision.reason).toMatch(GROUP);
    expect(decision.newestEnd).toEqual({ shard: WHALE_SHARD, share: expect.any(Number) });
    expect(decision.newestEnd!.share).toBeGreaterThan(0.85);
    // No gain predicted: the largest shard stays about as loaded as it is (the old prediction was 1.00).
    expect(decision.predictedImbalance!).toBeGreaterThan(0.85 * decision.imbalance!);
    // Not calm: the rising bar's streak does not end on it.
    expect(decision.calm).toBeUndefined();
  });

  it('does not re-cut it either when DynamoDB throttles the shard, and says both', () => {
    const load = ordersWindow(() => ({ whale: 60, background: 5 }));
    const shards = load.window.shards.map((s) => (s.shard === WHALE_SHARD ? { ...s, throttles: 3 } : s));
    const decision = decide(inputs({ ...load, window: { ...load.window, shards } }), DEFAULT_AUTOPILOT);
    expect(decision.action).toBe('none');
    expect(decision.reason).toMatch(/^DynamoDB throttled a shard, but writes land at the newest end of the range/);
    expect(decision.reason).toMatch(GROUP);
  });

  it('re-cuts as before when the hot shard is written all over its range', () => {
    // The same volume on the same shard, random customers and past dates: a re-cut spreads it.
    const decision = step(() => ({ spread: 60, background: 5 }));
    expect(decision).toMatchObject({ action: 'reshard', target: { kind: 'range', shards: 8 } });
    expect(decision.reason).toMatch(/^re-cut by load: the largest shard's load down \d+%$/);
    expect(decision.predictedImbalance!).toBeCloseTo(1, 5);
    expect(decision.newestEnd).toBeUndefined();
  });

  it("re-cuts as before when many customers' orders are each time-ordered: no one stream is large", () => {
    const decision = step(() => ({ manyCustomers: 800, background: 5 }));
    expect(decision).toMatchObject({ action: 'reshard', target: { kind: 'range', shards: 8 } });
    expect(decision.predictedImbalance!).toBeCloseTo(1, 5);
    expect(decision.newestEnd).toBeUndefined();
  });

  it('re-cuts a mix whose spread writes a re-cut still moves, predicting the stream stays on one shard', () => {
    // 39% of the shard's writes are the whale's: a re-cut can take the other 61% off it.
    const decision = step(() => ({ whale: 60, spread: 90, background: 5 }));
    expect(decision.action).toBe('reshard');
    expect(decision.reason).toMatch(/^re-cut by load: the largest shard's load down \d+% \(\d+% of shard 2's writes/);
    expect(decision.reason).toMatch(/ land past every earlier one: they stay on one shard\)$/);
    expect(decision.newestEnd!.share).toBeGreaterThan(0.3);
    // The predicted largest shard is the whale's stream, not the mean.
    const predictedLargest = decision.predictedLargestShare!;
    expect(predictedLargest / decision.largestShare).toBeCloseTo(decision.newestEnd!.share, 1);
    expect(decision.predictedImbalance!).toBeGreaterThan(2);
  });

  it('leaves a mix alone once the stream takes so much of the shard that a re-cut gains less than minGain', () => {
    // 150 whale orders among 30 spread ones: 83% stays whatever the cut, a gain of 17% < 25%.
    const decision = step(() => ({ whale: 150, spread: 30, background: 5 }));
    expect(decision.action).toBe('none');
    expect(decision.reason).toMatch(GROUP);
    expect(1 - decision.predictedLargestShare! / decision.largestShare).toBeLessThan(DEFAULT_AUTOPILOT.minGain);
  });

  it('leaves evenly spread orders alone', () => {
    // Orders of random customers on every shard alike: nothing to gain, nothing said of streams.
    const decision = step(() => ({ background: 60 }));
    expect(decision).toMatchObject({ action: 'none', reason: 'balanced enough', calm: true });
    expect(decision.newestEnd).toBeUndefined();
  });
});
