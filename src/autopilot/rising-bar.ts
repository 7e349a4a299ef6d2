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
  readonly at: string;
  readonly action: 'none' | 'reshard';
  readonly dryRun?: boolean;
  readonly heldBack?: boolean;
  /** Reshards in a row after this step. */
  readonly streak?: number;
  /** null while it runs (or when its step was killed). */
  readonly reshard?: { readonly code: number | null };
}

/**
 * The reshards in a row before this step: the streak of the last step kept, unless the map
 * has been calm a whole window — no reshard started and none held back by the bar for
 * `windowMs` (the map's own change at `changedAt` included). A refused reshard (another run
 * held the lease, exit 3) moved nothing and does not count. Dry runs are not the autopilot's acts.
 */
export function reshardStreak(
  kept: readonly KeptStep[],
  changedAt: number | undefined,
  now: number,
  windowMs: number,
): number {
  const real = kept.filter((step) => !step.dryRun);
  const restless = real
    .filter((step) => step.heldBack || (step.action === 'reshard' && step.reshard?.code !== 3))
    .map((step) => Date.parse(step.at));
  const lastUnrest = Math.max(changedAt ?? Number.NEGATIVE_INFINITY, ...restless);
  if (!(now - lastUnrest < windowMs)) return 0;
  return real.at(-1)?.streak ?? 0;
}
