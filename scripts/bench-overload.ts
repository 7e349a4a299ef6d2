/**
 * `npm run bench:overload`: does the Node server shed overload or drown in it? Over
 * DynamoDB Local (its own process), a 21-shard collection is listed by 32 connections,
 * then by 1,000, for the same time each, in one run. Prints goodput (listings answered 200
 * a second) at both and their ratio, the share of fast 503s, anything else (other statuses,
 * connection errors, timeouts: there should be none), the worst /healthz latency while
 * loaded, and the server's RSS. Targets (issue: overload is shed): ratio ≥ 0.6, only 200 or
 * 503, health under 1 s. A script, not a timed test.
 */
import autocannon from 'autocannon';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { numberArg, parseCommandLine } from '../src/cli/command-line';
import { startServerProcess, type ServerProcess } from './bench/server-process';

const USAGE = `Usage: npm run bench:overload -- [--duration S] [--connections N] [--items N]

Lists albums-hash (21 shards) with 32 connections, then with N (default 1000), S seconds
each (default 20); prints goodput, 503 share, errors, worst /healthz latency and RSS.`;

const options = parseCommandLine(
  'bench:overload',
  USAGE,
  {
    options: {
      duration: { type: 'string', default: '20' },
      connections: { type: 'string', default: '1000' },
      items: { type: 'string', default: '2000' },
    },
  },
  ({ values }) => ({
    duration: numberArg('duration', values.duration, { min: 1 }),
    connections: numberArg('connections', values.connections, { min: 1, integer: true }),
    items: numberArg('items', values.items, { min: 1, integer: true }),
  }),
);

const MIB = 1024 * 1024;
const BASELINE_CONNECTIONS = 32;
const log = (line: string) => process.stderr.write(`bench:overload: ${line}\n`);

interface Phase {
  readonly connections: number;
  readonly statuses: Map<number, number>;
  readonly seconds: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly healthWorstMs: number;
  readonly healthFailures: number;
}

/** Probes /healthz every 100 ms on its own connection while `work` runs: the worst answer time. */
async function probingHealth<T>(base: string, work: Promise<T>) {
  let worst = 0;
  let failures = 0;
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        if (response.status !== 200) failures++;
      } catch {
        failures++;
      }
      worst = Math.max(worst, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const value = await work;
  running = false;
  await probe;
  return { value, worst, failures };
}

async function listingPhase(server: ServerProcess, connections: number): Promise<Phase> {
  const statuses = new Map<number, number>();
  const errorCodes = new Map<string, number>();
  const run = new Promise<autocannon.Result>((resolveRun, reject) => {
    const instance = autocannon(
      {
        url: `${server.base}/collections/albums-hash/items?limit=100`,
        connections,
        duration: options.duration,
        timeout: 30,
        requests: [{ onResponse: (status) => void statuses.set(status, (statuses.get(status) ?? 0) + 1) }],
      },
      (error, result) => (error ? reject(error) : resolveRun(result)),
    );
    instance.on('reqError', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      errorCodes.set(code, (errorCodes.get(code) ?? 0) + 1);
    });
  });
  const { value: result, worst, failures } = await probingHealth(server.base, run);
  if (errorCodes.size > 0) {
    log(`connection errors at ${connections}: ${[...errorCodes].map(([code, n]) => `${code} ${n}`).join(', ')}`);
  }
  return {
    connections,
    statuses,
    seconds: result.duration,
    errors: result.errors,
    timeouts: result.timeouts,
    healthWorstMs: worst,
    healthFailures: failures,
  };
}

log('starting DynamoDB Local and the server');
const engine = await startDynamoDbLocal();
const server = await startServerProcess(engine.endpoint, { LOG_LEVEL: 'off' });
try {
  log(`writing ${options.items} items`);
  for (let start = 0; start < options.items; start += 500) {
    const items = Array.from({ length: Math.min(500, options.items - start) }, (_, i) => ({
      pk: `o${start + i}`,
      sk: 'album',
      title: `Title ${((start + i) * 7919) % options.items}`,
    }));
    const response = await fetch(`${server.base}/collections/albums-hash/items/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    });
    if (response.status !== 200) throw new Error(`seeding answered ${response.status}: ${await response.text()}`);
  }
  const before = await server.memory();
  log(`${BASELINE_CONNECTIONS} connections for ${options.duration} s`);
  const baseline = await listingPhase(server, BASELINE_CONNECTIONS);
  log(`${options.connections} connections for ${options.duration} s`);
  const loaded = await listingPhase(server, options.connections);
  const after = await server.memory();

  const goodput = (phase: Phase) => (phase.statuses.get(200) ?? 0) / phase.seconds;
  const answered = (phase: Phase) => [...phase.statuses.values()].reduce((sum, n) => sum + n, 0);
  const others = (phase: Phase) =>
    [...phase.statuses].filter(([status]) => status !== 200 && status !== 503).map(([s, n]) => `${s}: ${n}`);
  console.log('| connections | goodput /s | 503 share | other statuses | errors | timeouts | /healthz worst ms |');
  console.log('| ---: | ---: | ---: | --- | ---: | ---: | ---: |');
  for (const phase of [baseline, loaded]) {
    const shed = (100 * (phase.statuses.get(503) ?? 0)) / Math.max(1, answered(phase));
    const cells = [
      phase.connections,
      goodput(phase).toFixed(1),
      `${shed.toFixed(1)}%`,
      others(phase).join(', ') || 'none',
      phase.errors,
      phase.timeouts,
      `${phase.healthWorstMs.toFixed(0)}${phase.healthFailures ? ` (${phase.healthFailures} failed)` : ''}`,
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  const ratio = goodput(loaded) / Math.max(goodput(baseline), 1e-9);
  console.log(`\ngoodput at ${options.connections} ÷ at ${BASELINE_CONNECTIONS}: ${ratio.toFixed(2)} (target ≥ 0.6)`);
  console.log(
    `only 200 or 503: ${others(loaded).length === 0 && loaded.errors === 0 && loaded.timeouts === 0 ? 'yes' : 'NO'}`,
  );
  console.log(`/healthz worst while loaded: ${loaded.healthWorstMs.toFixed(0)} ms (target < 1000)`);
  console.log(`server RSS ${(before.rss / MIB).toFixed(0)} → ${(after.rss / MIB).toFixed(0)} MiB (after a full GC)`);
} finally {
  await server.stop();
  await engine.stop();
}
