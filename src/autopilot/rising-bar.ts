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
  /** Reshards in a row after this step: 0 once a step found the map balanced over a whole window. */
  readonly streak?: number;
}

/**
 * The reshards in a row before this step: the streak the last step kept (dry runs are not the
 * autopilot's acts). It rises with each reshard started, holds while the map waits for a whole
 * window of its own load, a reshard is held back or refused, and ends (0) at the first step that
 * finds the map balanced over a whole window — the map stable a window, and calm.
 */
export function reshardStreak(kept: readonly KeptStep[]): number {
  return kept.filter((step) => !step.dryRun).at(-1)?.streak ?? 0;
}
