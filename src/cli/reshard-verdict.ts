import type { ReshardCost } from '../boundaries/reshard-cost';
import type { Balance } from '../boundaries/shard-loads';

/**
 * A reshard pays when the busiest shard would carry at least this share less: the
 * busiest partition is what throttles, and a smaller gain is within what the keys
 * drift by between two cuts, not worth a full backfill.
 */
export const RESHARD_PAYS_AT = 0.1;

export interface ReshardVerdict {
  /** Largest ÷ mean under the current boundaries. */
  readonly current: number;
  /** Largest ÷ mean under the new cut (what resharding achieves). */
  readonly achievable: number;
  /** 1 − new largest shard ÷ current largest shard, in items. */
  readonly relief: number;
  readonly moved: number;
  readonly pays: boolean;
  /** One line an operator can act on. */
  readonly line: string;
}

/**
 * Whether moving from the current boundaries to the new cut is worth it. Compared by the
 * largest shard in items, not by largest ÷ mean, so it stays right when the shard count
 * changes too.
 */
export function reshardVerdict(current: Balance, next: Balance, cost: ReshardCost): ReshardVerdict {
  const relief = current.max > 0 ? 1 - next.max / current.max : 0;
  const pays = relief >= RESHARD_PAYS_AT;
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const line =
    `reshard ${pays ? 'would pay' : 'would not pay'}: the largest shard would carry ${pct(Math.abs(relief))} ` +
    `${relief >= 0 ? 'less' : 'more'} (threshold: ${pct(RESHARD_PAYS_AT)} less) ` +
    `for ${Math.round(cost.moved).toLocaleString('en-US')} items moved (${pct(cost.fraction)})`;
  return {
    current: current.maxOverMean,
    achievable: next.maxOverMean,
    relief,
    moved: cost.moved,
    pays,
    line,
  };
}
