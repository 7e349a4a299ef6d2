import type { ReshardCost } from '../boundaries/reshard-cost';
import type { Balance } from '../boundaries/shard-loads';
import { formatCount } from '../core/count-text';

/** The share less the busiest shard must carry for a reshard to pay (docs/boundaries.md, "Would a reshard pay?"). */
export const RESHARD_PAYS_AT = 0.1;

export type ReshardVerdict = ReturnType<typeof reshardVerdict>;

/** Compared by the largest shard in items, not largest ÷ mean, so it stays right when the shard count changes. */
export function reshardVerdict(current: Balance, next: Balance, cost: ReshardCost) {
  const relief = current.max > 0 ? 1 - next.max / current.max : 0;
  const pays = relief >= RESHARD_PAYS_AT;
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const line =
    `reshard ${pays ? 'would pay' : 'would not pay'}: the largest shard would carry ${pct(Math.abs(relief))} ` +
    `${relief >= 0 ? 'less' : 'more'} (threshold: ${pct(RESHARD_PAYS_AT)} less) ` +
    `for ${formatCount(cost.moved)} items moved (${pct(cost.fraction)})`;
  return { current: current.maxOverMean, achievable: next.maxOverMean, relief, moved: cost.moved, pays, line };
}
