import type { KeptDecision } from '../store/decision-log';

/**
 * The rising bar (docs/autopilot.md): each reshard in a row doubles the predicted gain the next one
 * needs, so a hotspot that moves faster than windows is not chased by a reshard every window.
 */
export function gainBar(minGain: number, streak: number): number {
  return minGain * 2 ** streak;
}

/**
 * What the rising bar reads of a kept step: its `streak`, the reshards in a row after it (0 once the map has been
 * found balanced for a whole window), and `calmSince`, when the calm steps it belongs to began (absent: not calm).
 */
type KeptStep = Pick<KeptDecision, 'dryRun' | 'streak' | 'calmSince'>;

/** The reshards in a row before this step: the streak the last step kept (dry runs are not the autopilot's acts). */
export function reshardStreak(kept: readonly KeptStep[]): number {
  return lastKept(kept)?.streak ?? 0;
}

/**
 * The streak after a step, and since when the calm it is in has lasted. One calm step amid a moving hotspot
 * is not a calm window: the streak ends only when the calm steps in a row span `windowMs`.
 */
export function streakAfterStep(
  kept: readonly KeptStep[],
  calm: boolean,
  now: number,
  windowMs: number,
): { readonly streak: number; readonly calmSince?: string } {
  const streak = reshardStreak(kept);
  if (!calm) return { streak };
  const since = lastKept(kept)?.calmSince ?? new Date(now).toISOString();
  return { streak: now - Date.parse(since) >= windowMs ? 0 : streak, calmSince: since };
}

function lastKept(kept: readonly KeptStep[]): KeptStep | undefined {
  return kept.filter((step) => !step.dryRun).at(-1);
}
