import type { KeptDecision } from '../store/decision-log';
import type { ReshardResult, StepRecord } from './step';

type Kept = readonly KeptDecision[];

const running = (entry: KeptDecision) => entry.reshard?.code === null;

/** The log with the reshard's outcome written into the decision that started it (kept before it ran). */
export function settled(kept: Kept, done: StepRecord): readonly object[] {
  const at = kept.findLastIndex((entry) => entry.at === done.at && running(entry));
  return at < 0 ? [...kept, done] : kept.map((entry, i) => (i === at ? done : entry));
}

/**
 * The log after a step that went on with a reshard under way. A refusal (another run holds the lease) is
 * kept once and counted, not an entry every step; a resumed reshard ran under the lease, so a decision still
 * marked running is a killed step's, and now says so.
 */
export function keptAfterResume(kept: Kept, resumed: StepRecord): readonly object[] {
  const last = kept.at(-1);
  if (resumed.reshard?.code === 3) {
    const again = last?.reshard?.code === 3 && last.reason === resumed.reason && last.mapVersion === resumed.mapVersion;
    if (!again) return [...kept, resumed];
    return [...kept.slice(0, -1), { ...last, repeats: (last.repeats ?? 1) + 1, lastAt: resumed.at }];
  }
  const killed = {
    code: 130,
    last: `its step ended before the reshard did (killed or stopped); the step at ${resumed.at} went on with it`,
  };
  return [...kept.map((entry) => (running(entry) ? { ...entry, reshard: killed } : entry)), resumed];
}

/** What a step that went on with a reshard under way says it did. */
export function resumeReason(reshard: ReshardResult, version: number | undefined): string {
  if (reshard.code === 0) return `resumed the reshard to v${version} and finished it`;
  if (reshard.code === 130) return `resumed the reshard to v${version}; stopped at a safe point, the next step goes on`;
  if (reshard.code === 3) return 'a reshard is running (its run holds the lease)';
  return `resuming the reshard to v${version} failed; the next step tries again`;
}
