/**
 * `npm run bench:micro`: the router's hot paths on one core — routing a key (range
 * bisect, hash sha256), the k-way merge, cursor encode/decode. Each case runs for
 * about a second after a warm-up; rates are per CPU-second of this single-threaded
 * process (so per core, whatever else loads the machine), and the median of the runs'
 * rates is quoted. A case with a baseline is then run in turns with it, and the median
 * of the pairs' time ratios is quoted beside it. An argument runs only the cases whose
 * name contains it. Writes
 * bench-results/micro-<timestamp>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { type MicroCase, microCases } from './bench/micro-cases';
import { median } from '../devtools/stats';
import { parseCommandLine } from '../src/cli/command-line';

const USAGE = `Usage: npm run bench:micro [-- NAME…]

Rates of the router's hot paths (routing, merge, cursor) per CPU-second of one core;
writes bench-results/micro-<timestamp>.json.

  NAME     run only the cases whose name contains one of these (default: all)
  --help`;

const only = parseCommandLine('bench:micro', USAGE, { allowPositionals: true }, ({ positionals }) => positionals);

const RUN_MS = 1000;
const startedAt = new Date();
const results: {
  name: string;
  unit: string;
  perSecond: number;
  target?: number;
  met?: boolean;
  baseline?: string;
  costRatio?: number;
}[] = [];
const chosen = (name: string) => only.length === 0 || only.some((part) => name.includes(part));
const cases = microCases();
/** CPU-seconds one run of `micro` takes: the machine is shared, and the rate asked for is per core. */
const cpuSecondsOf = (micro: MicroCase): number => {
  const cpu = process.cpuUsage();
  micro.run();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1e6;
};
for (const micro of cases.filter((micro) => chosen(micro.name))) {
  for (let warm = 0; warm < 3; warm++) micro.run();
  const rates: number[] = [];
  const until = performance.now() + RUN_MS;
  while (performance.now() < until || rates.length < 5) rates.push(micro.batch / cpuSecondsOf(micro));
  const perSecond = median(rates);
  // Time per operation relative to the baseline, from runs taken in turns with it: on a
  // shared machine the speed drifts by 2× within seconds, and a ratio of two medians
  // taken at different moments would carry that drift.
  const baseline = micro.baseline === undefined ? undefined : cases.find((other) => other.name === micro.baseline);
  let costRatio: number | undefined;
  if (baseline) {
    const ratios: number[] = [];
    const pairsUntil = performance.now() + RUN_MS;
    while (performance.now() < pairsUntil || ratios.length < 5) {
      const base = cpuSecondsOf(baseline) / baseline.batch;
      ratios.push(cpuSecondsOf(micro) / micro.batch / base);
    }
    costRatio = median(ratios);
  }
  results.push({
    name: micro.name,
    unit: micro.unit,
    perSecond,
    ...(micro.target !== undefined && { target: micro.target, met: perSecond >= micro.target }),
    ...(baseline && { baseline: baseline.name, costRatio }),
  });
  const target =
    (micro.target === undefined
      ? ''
      : `  (target ≥ ${micro.target.toLocaleString('en-US')}: ${perSecond >= micro.target ? 'met' : 'MISS'})`) +
    (costRatio === undefined ? '' : `  (${costRatio.toFixed(2)}× the time of: ${baseline!.name}, in turns)`);
  process.stdout.write(
    `${micro.name.padEnd(56)} ${Math.round(perSecond).toLocaleString('en-US').padStart(12)} ${micro.unit}${target}\n`,
  );
}
process.stdout.write(
  `load average ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')} on ${cpus().length} cores\n`,
);
const dir = resolve(import.meta.dirname, '../bench-results');
mkdirSync(dir, { recursive: true });
writeFileSync(
  resolve(dir, `micro-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`),
  JSON.stringify({ startedAt, node: process.version, results }, null, 2),
);
