import { median } from '../../devtools/stats';
import type { DynamoCall } from './record-proxy';

/** One phase of one route on one side: how many requests, CPU a request, latency. */
export interface Sample {
  readonly count: number;
  readonly cpuMs: number;
  readonly p50: number;
  readonly p99: number;
}

/** `2 × Query`: the operations one request sent. */
export function describeCalls(calls: readonly DynamoCall[]): string {
  const counts = new Map<string, number>();
  for (const { target } of calls) {
    const operation = target.split('.').pop() ?? target;
    counts.set(operation, (counts.get(operation) ?? 0) + 1);
  }
  return [...counts].map(([operation, n]) => (n > 1 ? `${n} × ${operation}` : operation)).join(', ') || 'none';
}

/**
 * This checkout's server against another's (`--against`), CPU a request: each round ran the two one after the
 * other, route by route, so the difference is taken round by round and its median given.
 */
export function comparisonTable(
  routes: readonly { readonly name: string }[],
  results: ReadonlyMap<string, { readonly server: Sample[]; readonly other: Sample[] }>,
  against: string,
): string {
  const ms = (value: number) => value.toFixed(2);
  const lines = [
    `\nThis checkout against ${against}, CPU a request:\n`,
    '| request | this | against | difference (median of rounds) | against ÷ this (median of rounds) |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const route of routes) {
    const { server: mine, other: theirs } = results.get(route.name)!;
    const differences = mine.map((sample, i) => sample.cpuMs - theirs[i]!.cpuMs);
    const ratios = mine.map((sample, i) => theirs[i]!.cpuMs / sample.cpuMs);
    const cpu = (samples: Sample[]) => `${ms(median(samples.map((sample) => sample.cpuMs)))} ms`;
    lines.push(
      `| ${route.name} | ${cpu(mine)} | ${cpu(theirs)} | ${ms(median(differences))} ms | ` +
        `${median(ratios).toFixed(2)}× |`,
    );
  }
  return lines.join('\n');
}

const ms = (value: number) => (Number.isNaN(value) ? '—' : value.toFixed(2));

export const FLOOR_TABLE_HEAD =
  '| request | DynamoDB calls | CPU / request | floor | ratio | above floor | p50 (floor) | p99 (floor) |\n' +
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |';

/** One route's row against its floor: medians over the rounds; a route without DynamoDB calls has no floor. */
export function floorRow(name: string, calls: readonly DynamoCall[], side: Sample[], floor: Sample[]): string {
  const cell = (samples: Sample[], figure: keyof Sample) => median(samples.map((sample) => sample[figure]));
  const cpu = cell(side, 'cpuMs');
  const floorCpu = calls.length > 0 ? cell(floor, 'cpuMs') : Number.NaN;
  const cells = [
    name,
    describeCalls(calls),
    `${ms(cpu)} ms`,
    calls.length > 0 ? `${ms(floorCpu)} ms` : '—',
    calls.length > 0 ? `${(cpu / floorCpu).toFixed(2)}×` : '—',
    calls.length > 0 ? `${ms(cpu - floorCpu)} ms` : '—',
    `${ms(cell(side, 'p50'))} (${ms(cell(floor, 'p50'))})`,
    `${ms(cell(side, 'p99'))} (${ms(cell(floor, 'p99'))})`,
  ];
  return `| ${cells.join(' | ')} |`;
}
