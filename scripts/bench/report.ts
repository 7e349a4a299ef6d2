import type { RowFigures, TargetCheck } from './figures';

const f = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

/**
 * The bench table as Markdown (it goes into the README section "Performance" as printed):
 * medians, p99 where latency matters.
 */
export function markdownTable(rows: readonly RowFigures[], reference: RowFigures | undefined, delayMs: number): string {
  const header = [
    'listing',
    'shards',
    'read ÷ returned',
    'queries / page',
    'round trips / page',
    'RCU / page',
    'CPU ms / page',
    'page ms p50 / p99',
    `page ms +${delayMs} ms/call p50 / p99`,
    '× one-shard page',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const times = reference ? row.delayedMs.p50 / reference.delayedMs.p50 : Number.NaN;
    lines.push(
      `| ${[
        row.name,
        String(row.shards),
        f(row.readRatio.p50),
        f(row.queries.p50, 1),
        f(row.roundTrips.p50, 1),
        row.rcu ? f(row.rcu.p50, 1) : '–',
        f(row.cpuMs.p50),
        `${f(row.directMs.p50, 1)} / ${f(row.directMs.p99, 1)}`,
        `${f(row.delayedMs.p50, 1)} / ${f(row.delayedMs.p99, 1)}`,
        f(times, 2),
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

export function targetLines(checks: readonly TargetCheck[]): string {
  return checks
    .map((c) => `${c.met ? 'met ' : 'MISS'}  ${c.target}: ${f(c.measured, 3)} (limit ${f(c.limit, 2)})`)
    .join('\n');
}
