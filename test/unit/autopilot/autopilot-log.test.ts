import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../../src/autopilot/step';
import { keptAfterResume, settled } from '../../../src/autopilot/step-log';
import type { KeptDecision } from '../../../src/store/decision-log';

/** A step as kept, and as the log reads it back (the reader's type allows any further field). */
const step = (at: string, fields: Partial<StepRecord> = {}): StepRecord & KeptDecision => ({
  action: 'none',
  reason: 'a reshard is running',
  imbalance: 1,
  largestShare: 0.1,
  bar: 0.25,
  collection: 'c',
  at,
  mapVersion: 1,
  shardCount: 4,
  routers: 1,
  dryRun: false,
  streak: 0,
  ...fields,
});

describe('the decision log as steps keep it', () => {
  it('writes a reshard outcome into the decision kept before it ran', () => {
    const started = step('2026-01-01T00:00:00.000Z', { action: 'reshard', reshard: { code: null, last: 'running' } });
    const done = { ...started, reshard: { code: 0, last: 'stable on v2' } };
    expect(settled([started], done)).toEqual([done]);
  });

  it("marks a killed step's reshard when a later step resumes it, and keeps a refusal once, counted", () => {
    const killed = step('2026-01-01T00:00:00.000Z', { action: 'reshard', reshard: { code: null, last: 'running' } });
    const resumed = step('2026-01-01T00:01:00.000Z', { reshard: { code: 0, last: 'stable on v2' } });
    const after = keptAfterResume([killed], resumed) as KeptDecision[];
    expect(after).toHaveLength(2);
    expect(after[0]!.reshard).toMatchObject({ code: 130, last: expect.stringMatching(/killed or stopped/) });

    const refusal = (at: string) =>
      step(at, { reason: 'a reshard is running (its run holds the lease)', reshard: { code: 3, last: 'held' } });
    let kept: KeptDecision[] = [];
    for (let minute = 0; minute < 5; minute++) {
      kept = keptAfterResume(kept, refusal(`2026-01-01T00:0${minute}:00.000Z`)) as KeptDecision[];
    }
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ repeats: 5, lastAt: '2026-01-01T00:04:00.000Z' });
  });
});
