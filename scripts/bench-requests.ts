/**
 * `npm run bench:requests`: what each route costs the deployed process. The Node server runs
 * as `npm start` runs it (src/runtime/node/main.ts, default settings: request log at info on its
 * stdout, which is read and dropped, metrics on, hedging on) over DynamoDB Local, and is
 * driven by a keep-alive client; in turns with it, the floor (scripts/bench/floor-child.ts)
 * sends the same DynamoDB calls, recorded from the router, raw over keep-alive. Each side's
 * CPU is its process's user + system time from /proc, less what it spends idle; the client's
 * own CPU counts for neither. Prints medians over the rounds of CPU a request, its ratio to the
 * floor and the difference, and p50 / p99 latency; with --lambda, the same for the built Lambda
 * bundle, its handler invoked in a process of its own (scripts/bench/lambda-child.ts). A script, not a timed test.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { stopChild } from '../devtools/child-process';
import { quantile } from '../devtools/stats';
import { numberArg, parseCommandLine } from '../src/cli/command-line';
import { drive, type PhaseLength } from './bench/drive';
import { idleCpuRate, processCpuMs } from './bench/process-cpu';
import { startRecordingProxy, type DynamoCall } from './bench/record-proxy';
import { call, closeConnections, ROUTES, seed, type BenchRoute } from './bench/request-routes';
import { startServerProcess } from './bench/server-process';
import { comparisonTable, FLOOR_TABLE_HEAD, floorRow, type Sample } from './bench/request-report';
import { startLambdaProcess } from './bench/lambda-process';

const USAGE = `Usage: npm run bench:requests -- [--rounds N] [--seconds S] [--concurrency N] [--items N]
  [--env NAME=VALUE,…] [--only TEXT] [--cpu-prof DIR] [--against DIR] [--against-node BIN] [--lambda]

Each round runs every route on the server for S seconds (default 1.5), then its floor; prints
medians of N rounds (default 5). --env sets the server's environment (LOG_LEVEL=off,
SHARDLINE_METRICS=false to weigh them); --only keeps the routes whose name holds TEXT;
--cpu-prof writes the server's CPU profile into DIR when it stops; --against DIR runs the server of
another checkout (the code before a change) too, in turns with this one, and adds its column;
--against-node BIN runs that other server (this checkout unless --against) with another Node binary
(Node 22 against Node 24: npm run bench:requests -- --against-node .cache/node22/package/bin/node);
--lambda builds the Lambda bundle and invokes its handler in a process of its own, in turns with
the server and the floor, and adds its table.`;

const options = parseCommandLine(
  'bench:requests',
  USAGE,
  {
    options: {
      rounds: { type: 'string', default: '5' },
      seconds: { type: 'string', default: '1.5' },
      concurrency: { type: 'string', default: '2' },
      items: { type: 'string', default: '2000' },
      env: { type: 'string', default: '' },
      only: { type: 'string', default: '' },
      'cpu-prof': { type: 'string' },
      against: { type: 'string' },
      'against-node': { type: 'string' },
      lambda: { type: 'boolean', default: false },
    },
  },
  ({ values }) => ({
    rounds: numberArg('rounds', values.rounds, { min: 1, integer: true }),
    seconds: numberArg('seconds', values.seconds, { min: 0.1 }),
    concurrency: numberArg('concurrency', values.concurrency, { min: 1, integer: true }),
    items: numberArg('items', values.items, { min: 200, integer: true }),
    env: Object.fromEntries(
      values.env
        .split(',')
        .filter(Boolean)
        .map((pair) => pair.split('=', 2) as [string, string]),
    ),
    only: values.only,
    cpuProf: values['cpu-prof'],
    against: values.against,
    againstNode: values['against-node'] && resolve(values['against-node']),
    lambda: values.lambda,
  }),
);

const log = (line: string) => process.stderr.write(`bench:requests: ${line}\n`);
const routes = ROUTES.filter((route) => route.name.includes(options.only));

/** Runs one phase against `pid`'s work and charges it that process's CPU, idle subtracted. */
async function measure(pid: number, idleRate: number, work: () => Promise<number[]>): Promise<Sample> {
  const cpu = processCpuMs(pid);
  const started = performance.now();
  const latencies = await work();
  const used = processCpuMs(pid) - cpu - idleRate * (performance.now() - started);
  return {
    count: latencies.length,
    cpuMs: used / latencies.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
  };
}

log('starting DynamoDB Local');
const engine = await startDynamoDbLocal();
const proxy = await startRecordingProxy(engine.endpoint);
const table = `requests-${Date.now()}`;
const recorded = new Map<string, DynamoCall[]>();
{
  log('seeding and recording each route’s DynamoDB calls (through a recording proxy)');
  // Unhedged: the floor sends each call once.
  const recorder = await startServerProcess(proxy.endpoint, {
    TABLE_NAME: table,
    LOG_LEVEL: 'off',
    SHARDLINE_HEDGE: 'false',
  });
  try {
    await seed(recorder.base, options.items);
    for (const route of routes) {
      // Twice unrecorded first: shard maps, latencies and connections settle.
      for (const key of ['warm-0', 'warm-1']) await call(recorder.base, route.request(key));
      const stop = proxy.record();
      await call(recorder.base, route.request('recorded-key'));
      recorded.set(route.name, stop());
    }
  } finally {
    await recorder.stop();
    await proxy.stop();
  }
}

log('starting the server as npm start does, and the floor');
const server = await startServerProcess(
  engine.endpoint,
  { TABLE_NAME: table, ...options.env },
  { drainLogs: true, execArgv: options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProf}`] : [] },
);
// The other checkout's server (--against), driven in turns with this one over the same table.
const other =
  options.against || options.againstNode
    ? await startServerProcess(
        engine.endpoint,
        { TABLE_NAME: table, ...options.env },
        { drainLogs: true, root: options.against, node: options.againstNode },
      )
    : undefined;
const floor = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'bench/floor-child.ts')], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const floorAnswers = createInterface({ input: floor.stdout! })[Symbol.asyncIterator]();
const askFloor = async (command: object): Promise<number[]> => {
  floor.stdin!.write(`${JSON.stringify(command)}\n`);
  const { value } = await floorAnswers.next();
  return (JSON.parse(value as string) as { latencies: number[] }).latencies;
};

const results = new Map(
  routes.map((route) => [
    route.name,
    { server: [] as Sample[], other: [] as Sample[], floor: [] as Sample[], lambda: [] as Sample[] },
  ]),
);
/** Timed phases, but a DELETE deletes exactly the items its side's PUT wrote in that round. */
const phaseLength = (route: BenchRoute, puts: number): PhaseLength =>
  route.keyed === 'delete'
    ? { count: puts, concurrency: options.concurrency }
    : { seconds: options.seconds, concurrency: options.concurrency };
// The keys a local engine takes (one database per access key): the server's (src/runtime/aws-keys.ts).
const accessKeyId = process.env.AWS_SECRET_ACCESS_KEY ? (process.env.AWS_ACCESS_KEY_ID ?? 'shardline') : 'shardline';
// The bundle as Lambda runs it (--lambda), over the same table, with the server's keys and settings.
const lambda = options.lambda
  ? await startLambdaProcess({
      TABLE_NAME: table,
      DYNAMODB_ENDPOINT: engine.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? 'shardline',
      CURSOR_SECRET: 'bench-requests-cursor-secret-of-32-bytes',
      ...options.env,
    })
  : undefined;
try {
  const serverPid = server.child.pid!;
  const floorPid = floor.pid!;
  for (let round = -1; round < options.rounds; round++) {
    // Round -1 warms both up (JIT, connections) and is not counted.
    const [serverIdle, floorIdle, otherIdle] = await Promise.all([
      idleCpuRate(serverPid, 1000),
      idleCpuRate(floorPid, 1000),
      other ? idleCpuRate(other.child.pid!, 1000) : 0,
    ]);
    log(round >= 0 ? `round ${round + 1} of ${options.rounds}` : 'warming up');
    const puts = { server: 0, other: 0, floor: 0, lambda: 0 };
    for (const route of routes) {
      const onServer = await measure(serverPid, serverIdle, () =>
        drive(phaseLength(route, puts.server), (i) =>
          call(server.base, route.request(`s${round}-${i}`)).then(() => {}),
        ),
      );
      const onOther =
        other &&
        (await measure(other.child.pid!, otherIdle, () =>
          drive(phaseLength(route, puts.other), (i) =>
            call(other.base, route.request(`o${round}-${i}`)).then(() => {}),
          ),
        ));
      const onFloor = await measure(floorPid, floorIdle, () =>
        askFloor({
          ...phaseLength(route, puts.floor),
          endpoint: engine.endpoint,
          accessKeyId,
          calls: recorded.get(route.name) ?? [],
          ...(route.keyed && { keyFrom: 'recorded-key', keyPrefix: `f${round}-` }),
        }),
      );
      const onLambda = await lambda?.run(route.name, phaseLength(route, puts.lambda), `l${round}-`);
      if (route.keyed === 'put') {
        Object.assign(puts, {
          server: onServer.count,
          other: onOther?.count ?? 0,
          floor: onFloor.count,
          lambda: onLambda?.count ?? 0,
        });
      }
      if (round >= 0) {
        results.get(route.name)!.server.push(onServer);
        if (onOther) results.get(route.name)!.other.push(onOther);
        results.get(route.name)!.floor.push(onFloor);
        if (onLambda) results.get(route.name)!.lambda.push(onLambda);
      }
    }
  }
} finally {
  await server.stop();
  await other?.stop();
  await lambda?.stop();
  await stopChild(floor, () => floor.stdin!.end());
  closeConnections();
  await engine.stop();
}

console.log(
  `\n${options.rounds} rounds of ${options.seconds} s a route, ${options.concurrency} in flight, ` +
    `Node ${process.versions.node}; ` +
    `server env: ${
      Object.entries(options.env)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ') || 'defaults'
    }\n`,
);
console.log(FLOOR_TABLE_HEAD);
for (const route of routes) {
  const { server: onServer, floor: onFloor } = results.get(route.name)!;
  console.log(floorRow(route.name, recorded.get(route.name) ?? [], onServer, onFloor));
}
if (lambda) {
  console.log('\nThe built Lambda bundle, its handler invoked in its process with HTTP API (2.0) events:\n');
  console.log(FLOOR_TABLE_HEAD);
  for (const route of routes) {
    const { lambda: onLambda, floor: onFloor } = results.get(route.name)!;
    console.log(floorRow(route.name, recorded.get(route.name) ?? [], onLambda, onFloor));
  }
}

if (other) {
  const versionOf = (node: string) => spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const against = [options.against, options.againstNode && `Node ${versionOf(options.againstNode)}`];
  console.log(comparisonTable(routes, results, against.filter(Boolean).join(' on ')));
}
