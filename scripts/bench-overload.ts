/**
 * `npm run bench:overload`: does the Node server shed overload or drown in it? Over
 * DynamoDB Local (its own process), a 21-shard collection is listed by 32 connections,
 * then by 1,000, for the same time each, in one run. Prints goodput (listings answered 200
 * a second) at both and their ratio, the share of fast 503s, anything else (other statuses,
 * connection errors, timeouts: there should be none), the worst /healthz latency while
 * loaded (on new connections, on the main port and on HEALTH_PORT), and the server's RSS. Targets
 * (issue: overload is shed): ratio ≥ 0.6, only 200 or 503, HEALTH_PORT probes under 1 s. A script,
 * not a timed test.
 */
import autocannon from 'autocannon';
import { freePort, startDynamoDbLocal } from '../devtools/dynamodb-local';
import { probeOnNewConnection } from '../devtools/new-connection-probe';
import { median } from '../devtools/stats';
import { numberArg, parseCommandLine } from '../src/cli/command-line';
import { startServerProcess, type ServerProcess } from './bench/server-process';

const USAGE = `Usage: npm run bench:overload -- [--duration S] [--connections N] [--items N]

Lists albums-hash (21 shards) with 32 connections, then with N (default 1000), S seconds
each (default 20); prints goodput, 503 share, errors, /healthz latencies on new connections
(main port and HEALTH_PORT) and RSS.`;

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
  readonly main: Probes;
  readonly health: Probes;
}

/** The probes' times: worst, median and every one, in ms. */
interface Probes {
  readonly worst: number;
  readonly median: number;
  readonly failures: number;
  readonly all: readonly number[];
}

/**
 * Probes /healthz every 200 ms on new connections (as load balancers do: no keep-alive pool), on the main
 * port and on HEALTH_PORT, while `work` runs. The probes run in this process beside autocannon, so their
 * times include this process's own turns: an upper bound on the server's.
 */
async function probingHealth<T>(ports: { main: number; health: number }, work: Promise<T>) {
  const times = { main: [] as number[], health: [] as number[] };
  const failures = { main: 0, health: 0 };
  let running = true;
  const probe = (async () => {
    while (running) {
      for (const which of ['main', 'health'] as const) {
        const { status, ms } = await probeOnNewConnection(ports[which]);
        times[which].push(ms);
        if (status !== 200) failures[which]++;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const value = await work;
  running = false;
  await probe;
  const summary = (which: 'main' | 'health'): Probes => ({
    worst: Math.max(0, ...times[which]),
    median: times[which].length > 0 ? median(times[which]) : 0,
    failures: failures[which],
    all: times[which],
  });
  return { value, main: summary('main'), health: summary('health') };
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
  const {
    value: result,
    main,
    health,
  } = await probingHealth({ main: Number(new URL(server.base).port), health: healthPort }, run);
  if (errorCodes.size > 0) {
    log(`connection errors at ${connections}: ${[...errorCodes].map(([code, n]) => `${code} ${n}`).join(', ')}`);
  }
  return {
    connections,
    statuses,
    seconds: result.duration,
    errors: result.errors,
    timeouts: result.timeouts,
    main,
    health,
  };
}

log('starting DynamoDB Local and the server');
const engine = await startDynamoDbLocal();
const healthPort = await freePort();
const server = await startServerProcess(engine.endpoint, { LOG_LEVEL: 'off', HEALTH_PORT: String(healthPort) });
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
  const probes = (p: Probes) =>
    `${p.worst.toFixed(0)} / ${p.median.toFixed(0)}${p.failures ? ` (${p.failures} failed)` : ''}`;
  console.log(
    '| connections | goodput /s | 503 share | other statuses | errors | timeouts ' +
      '| /healthz worst / median ms | HEALTH_PORT worst / median ms |',
  );
  console.log('| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |');
  for (const phase of [baseline, loaded]) {
    const shed = (100 * (phase.statuses.get(503) ?? 0)) / Math.max(1, answered(phase));
    const cells = [
      phase.connections,
      goodput(phase).toFixed(1),
      `${shed.toFixed(1)}%`,
      others(phase).join(', ') || 'none',
      phase.errors,
      phase.timeouts,
      probes(phase.main),
      probes(phase.health),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  const ratio = goodput(loaded) / Math.max(goodput(baseline), 1e-9);
  console.log(`\ngoodput at ${options.connections} ÷ at ${BASELINE_CONNECTIONS}: ${ratio.toFixed(2)} (target ≥ 0.6)`);
  console.log(
    `only 200 or 503: ${others(loaded).length === 0 && loaded.errors === 0 && loaded.timeouts === 0 ? 'yes' : 'NO'}`,
  );
  const times = (p: Probes) => p.all.map((ms) => ms.toFixed(0)).join(' ');
  console.log(`/healthz probes while loaded, new connections (ms): ${times(loaded.main)}`);
  console.log(`HEALTH_PORT probes while loaded, new connections (ms): ${times(loaded.health)}`);
  console.log(`HEALTH_PORT worst while loaded: ${loaded.health.worst.toFixed(0)} ms (target < 1000)`);
  console.log(`server RSS ${(before.rss / MIB).toFixed(0)} → ${(after.rss / MIB).toFixed(0)} MiB (after a full GC)`);
} finally {
  await server.stop();
  await engine.stop();
}
