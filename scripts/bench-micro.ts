/**
 * `npm run bench:micro`: the router's hot paths on one core — routing a key (range
 * bisect, hash sha256), the k-way merge, cursor encode/decode. Each case runs for
 * about a second after a warm-up; rates are per CPU-second of this single-threaded
 * process (so per core, whatever else loads the machine), and the median of the runs'
 * rates is quoted. An argument runs only the cases whose name contains it. Writes
 * bench-results/micro-<timestamp>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { microCases } from './bench/micro-cases';
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
for (const micro of microCases().filter((micro) => chosen(micro.name))) {
  for (let warm = 0; warm < 3; warm++) micro.run();
  const rates: number[] = [];
  const until = performance.now() + RUN_MS;
  while (performance.now() < until || rates.length < 5) {
    // CPU time, not wall time: the machine is shared, and the rate asked for is per core.
    const cpu = process.cpuUsage();
    micro.run();
    const used = process.cpuUsage(cpu);
    rates.push(micro.batch / ((used.user + used.system) / 1e6));
  }
  const perSecond = median(rates);
  // Time per operation relative to the baseline case measured earlier in this run.
  const base = results.find((result) => result.name === micro.baseline);
  const costRatio = base && base.perSecond / perSecond;
  results.push({
    name: micro.name,
    unit: micro.unit,
    perSecond,
    ...(micro.target !== undefined && { target: micro.target, met: perSecond >= micro.target }),
    ...(base && { baseline: base.name, costRatio }),
  });
  const target =
    (micro.target === undefined
      ? ''
      : `  (target ≥ ${micro.target.toLocaleString('en-US')}: ${perSecond >= micro.target ? 'met' : 'MISS'})`) +
    (costRatio === undefined ? '' : `  (${costRatio.toFixed(2)}× the time of: ${base!.name})`);
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
