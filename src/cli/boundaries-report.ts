import type { Balance, HeavyHitter } from '../boundaries/shard-loads';
import type { ReshardCost } from '../boundaries/reshard-cost';
import { textBar } from './charts';
import type { ReshardVerdict } from './reshard-verdict';
import { formatCount } from '../core/count-text';

export interface BoundariesSummary {
  readonly shards: number;
  readonly keys: number;
  /** Distinct keys; unknown when sketched. */
  readonly distinct: number | undefined;
  /** Set when cut from a sketch (--max-memory): its guaranteed error. */
  readonly sketch?: { readonly retainedKeys: number; readonly shardCountErrorBound: number };
  /** How keys were read: `normalization nfkd-lower`, or a typed order's fields. */
  readonly keyForm: string;
  readonly source: string;
  /** As the file writes them: strings, or a typed order's tuples. */
  readonly boundaries: readonly unknown[];
  readonly loads: ArrayLike<number>;
  readonly balance: Balance;
  readonly bestMax: number;
  readonly allowedMax: number;
  readonly meanBoundaryLength: number;
  readonly heavyHitters: readonly HeavyHitter[];
  readonly skipped: ReadonlyMap<string, number>;
  readonly compare?: {
    readonly file: string;
    readonly cost: ReshardCost;
    readonly verdict: ReshardVerdict;
    readonly note?: string;
  };
  readonly seconds: { readonly read: number; readonly sort: number; readonly cut: number };
}

const MAX_ROWS = 64;

export function formatReport(s: BoundariesSummary): string {
  const lines = [
    `${s.shards} shards over ${formatCount(s.keys)} keys (` +
      `${s.distinct === undefined ? 'sketched' : `${formatCount(s.distinct)} distinct`}, ${s.keyForm})` +
      ` from ${s.source}`,
  ];
  for (const [reason, count] of s.skipped) lines.push(`  skipped ${formatCount(count)} records: ${reason}`);
  lines.push(
    `balance: largest ${formatCount(s.balance.max)} / mean ${formatCount(s.balance.mean)} = ` +
      `${s.balance.maxOverMean.toFixed(4)} (smallest ${formatCount(s.balance.min)}; ` +
      `best possible ${(s.bestMax / s.balance.mean).toFixed(4)}, ` +
      `allowed ${(s.allowedMax / s.balance.mean).toFixed(4)})`,
  );
  if (s.sketch) {
    const bound = s.sketch.shardCountErrorBound;
    lines.push(
      `sketch: ${formatCount(s.sketch.retainedKeys)} keys held; ` +
        `every shard count above is within ±${formatCount(bound)} items ` +
        `(largest ÷ mean within ±${(bound / s.balance.mean).toFixed(4)})`,
    );
  }
  lines.push(`boundaries: mean ${s.meanBoundaryLength.toFixed(2)} characters`);
  if (s.heavyHitters.length === 0) lines.push('heavy hitters: none (no single key outweighs a shard)');
  else {
    lines.push(`heavy hitters (${s.heavyHitters.length}): repeated boundaries, items spread evenly over the run`);
    for (const h of s.heavyHitters.slice(0, 20)) {
      lines.push(
        `  ${JSON.stringify(h.value)}: ${formatCount(h.count)} items over shards ${h.shards[0]}–${h.shards.at(-1)}` +
          ` (${formatCount(h.count / h.shards.length)} each)`,
      );
    }
    if (s.heavyHitters.length > 20) lines.push(`  … ${s.heavyHitters.length - 20} more in the output file`);
  }
  lines.push(...shardRows(s));
  if (s.compare) {
    const { cost, file, note, verdict } = s.compare;
    lines.push(
      `reshard from ${file}: ${formatCount(cost.moved)} of ${formatCount(cost.total)} items ` +
        `(${(cost.fraction * 100).toFixed(2)} %) would move to another shard`,
      `  balance now ${verdict.current.toFixed(4)} (largest / mean under ${file}),` +
        ` achievable ${verdict.achievable.toFixed(4)}`,
      `  ${verdict.line}`,
    );
    if (note) lines.push(`  note: ${note}`);
  }
  lines.push(
    `time: read ${s.seconds.read.toFixed(1)} s, sort ${s.seconds.sort.toFixed(1)} s, cut ${s.seconds.cut.toFixed(1)} s`,
  );
  return lines.join('\n') + '\n';
}

function shardRows(s: BoundariesSummary): string[] {
  const n = s.loads.length;
  const row = (i: number): string => {
    const boundary = JSON.stringify(s.boundaries[i] ?? '');
    const shown = boundary.length > 24 ? `${boundary.slice(0, 23)}…` : boundary;
    return (
      `  ${String(i).padStart(5)}  ${shown.padEnd(24)} ${formatCount(s.loads[i]!).padStart(12)} ` +
      ` ${textBar(s.loads[i]!, s.balance.max, 40)}`
    );
  };
  const header = `  ${'shard'.padStart(5)}  ${'starts at'.padEnd(24)} ${'items'.padStart(12)}`;
  if (n <= MAX_ROWS) return [header, ...Array.from({ length: n }, (_, i) => row(i))];
  // Too many shards for one row each: the largest and smallest ones.
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => s.loads[b]! - s.loads[a]! || a - b);
  return [
    `largest and smallest of ${n} shards (all of them: shardCounts in the output file, --chart FILE.svg):`,
    header,
    ...order.slice(0, 8).map(row),
    '  …',
    ...order.slice(-4).map(row),
  ];
}
