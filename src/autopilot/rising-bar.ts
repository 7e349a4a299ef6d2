/**
 * The rising bar (docs/autopilot.md): each reshard the autopilot runs while the load has not
 * yet been calm for a window doubles the predicted gain the next one needs. A hotspot that
 * moves faster than windows would otherwise be chased by a reshard every window, each
 * predicting an even map and each moving more items; with `minGain` 0.25 the second reshard
 * in a row needs 0.5 and a third cannot happen (a gain below 1 never reaches 1) until the
 * load calms down.
 */
export function gainBar(minGain: number, streak: number): number {
  return minGain * 2 ** streak;
}

/** What the rising bar reads of a step kept in the decision log. */
export interface KeptStep {
  readonly dryRun?: boolean;
  /** Reshards in a row after this step: 0 once the map has been found balanced for a whole window. */
  readonly streak?: number;
  /** When the run of calm steps this one belongs to began (absent: this step was not calm). */
  readonly calmSince?: string;
}

/**
 * The reshards in a row before this step: the streak the last step kept (dry runs are not the
 * autopilot's acts). It rises with each reshard started, holds while the map waits for a whole
 * window of its own load, a reshard is held back or refused, and ends (0) once steps in a row have
 * found the map balanced for a whole window — the map stable a window, and calm.
 */
export function reshardStreak(kept: readonly KeptStep[]): number {
  return lastKept(kept)?.streak ?? 0;
}

/**
 * The streak after a step, and since when the calm it is in has lasted. One calm step amid a hotspot
 * that moves (a window that happened to straddle two places) is not a calm window: the streak ends
 * only when the calm steps in a row span `windowMs`.
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
