/**
 * `npm run bench`: shardline's listings against naive baselines on DynamoDB Local.
 *
 * Starts DynamoDB Local and a delaying proxy (a child process), loads seed-shaped
 * items into every demo collection, then walks every listing page by page: directly
 * (read cost, queries, RCU, router CPU, latency) and through the proxy (latency with
 * a fixed delay per DynamoDB call). Prints a Markdown table and the issue's targets,
 * writes bench-results/bench-<timestamp>.json and .svg.
 *
 * Options: `npm run bench -- --help`.
 */
import { firstMapOf } from '../src/core/collection';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { latencyChart } from './bench/latency-chart';
import { metricsOverhead, overheadLines } from './bench/metrics-overhead';
import { benchService, loadItems } from './bench/fixture';
import { check, rowFigures, type RowFigures, type TargetCheck } from './bench/figures';
import type { PageSample } from './bench/page-sample';
import { startDelayProxy } from './bench/processes';
import { markdownTable, targetLines } from './bench/report';
import { walkNaive, type NaiveMode } from './bench/walk-naive';
import { walkRouter } from './bench/walk-router';
import { queryRecorder, walkFloor } from './bench/walk-floor';
import { median } from '../devtools/stats';
import { numberArg, parseCommandLine } from '../src/cli/command-line';

const USAGE = `Usage: npm run bench [-- options]

Loads seed-shaped items into every demo collection on DynamoDB Local and walks every
listing, shardline's against naive baselines; prints a Markdown table and writes
bench-results/bench-<timestamp>.json and .svg.

  --items N            items per collection (default 4200)
  --page N             page size (default 100)
  --delay MS           added latency per DynamoDB call on the delayed walks (default 20)
  --passes N           direct walks per listing (default 3)
  --delayed-passes N   walks per listing through the delaying proxy (default 2)
  --seed N             seed of the generated items (default 4)
  --overhead-rounds N  rounds of the metrics on/off comparison (default 6; 0 skips it)
  --help`;

const options = parseCommandLine(
  'bench',
  USAGE,
  {
    options: {
      items: { type: 'string', default: '4200' },
      page: { type: 'string', default: '100' },
      delay: { type: 'string', default: '20' },
      passes: { type: 'string', default: '3' },
      'delayed-passes': { type: 'string', default: '2' },
      seed: { type: 'string', default: '4' },
      'overhead-rounds': { type: 'string', default: '6' },
    },
  },
  ({ values }) => ({
    items: numberArg('items', values.items, { min: 1, integer: true }),
    pageSize: numberArg('page', values.page, { min: 1, integer: true }),
    delayMs: numberArg('delay', values.delay),
    passes: numberArg('passes', values.passes, { min: 1, integer: true }),
    delayedPasses: numberArg('delayed-passes', values['delayed-passes'], { min: 1, integer: true }),
    seed: numberArg('seed', values.seed, { integer: true }),
    overheadRounds: numberArg('overhead-rounds', values['overhead-rounds'], { min: 0, integer: true }),
  }),
);

// The SDK's notice that its 2027 releases need Node 22 is for operators, not bench output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const startedAt = new Date();
const loadBefore = loadavg();
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

log('starting DynamoDB Local');
const engine = await startDynamoDbLocal();
const proxy = await startDelayProxy(engine.endpoint, options.delayMs);
try {
  const direct = benchService(engine.endpoint);
  const delayed = benchService(proxy.endpoint);
  // The router's calls of one walk per listing, recorded to be replayed without it: the floor.
  const recorder = queryRecorder(direct.dynamo.clients.raw);
  log(`loading ${options.items} items into each collection`);
  const loaded = await loadItems(direct, options.items, options.seed);
  log(`loaded ${[...loaded].map(([name, count]) => `${name} ${count}`).join(', ')}`);

  // The freshly loaded table routes by the config's first maps.
  const collection = (name: string) => firstMapOf(direct.collections.find((c) => c.name === name)!);
  const repeat = async (times: number, walk: () => Promise<PageSample[]>) => {
    const pages: PageSample[] = [];
    for (let i = 0; i < times; i++) pages.push(...(await walk()));
    return pages;
  };

  const rows: RowFigures[] = [];
  /** Router CPU against the floor, page for page, in turns (docs/performance.md). */
  const floors = new Map<string, { router: number; floor: number }>();
  const routerRows = [
    { name: 'shardline range', collection: 'albums' },
    { name: 'shardline hash', collection: 'albums-hash' },
    { name: 'shardline random', collection: 'albums-random' },
    { name: 'shardline one shard', collection: 'albums-one' },
  ];
  for (const row of routerRows) {
    log(`walking ${row.name}`);
    // The first walk of each service warms the JIT, the connections and, for range, the
    // shard-end hints that prefetching uses; it is kept apart as the "first walk" figures.
    const coldDirect = await walkRouter(direct.app, row.collection, options.pageSize);
    recorder.start();
    await walkRouter(direct.app, row.collection, options.pageSize, Infinity, null, recorder.page);
    const recorded = recorder.stop();
    const directPages: PageSample[] = [];
    const floorCpu: number[] = [];
    for (let pass = 0; pass < options.passes; pass++) {
      directPages.push(...(await walkRouter(direct.app, row.collection, options.pageSize)));
      const sortKey = collection(row.collection).map.index.indexKeyAttribute;
      floorCpu.push(...(await walkFloor(recorded, sortKey, options.pageSize)).map((page) => page.cpuMs));
    }
    floors.set(row.name, { router: median(directPages.map((page) => page.cpuMs)), floor: median(floorCpu) });
    const coldDelayed = await walkRouter(delayed.app, row.collection, options.pageSize);
    const delayedPages = await repeat(options.delayedPasses, () =>
      walkRouter(delayed.app, row.collection, options.pageSize),
    );
    const shards = collection(row.collection).map.strategy.shardCount;
    rows.push(rowFigures({ ...row, kind: 'shardline', shards }, directPages, delayedPages));
    if (row.collection === 'albums') {
      rows.push(
        rowFigures({ ...row, name: 'shardline range, first walk', kind: 'shardline', shards }, coldDirect, coldDelayed),
      );
    }
  }
  const naiveRows: { name: string; mode: NaiveMode; collection: string }[] = [
    { name: 'naive sequential (hash)', mode: 'sequential', collection: 'albums-hash' },
    { name: 'naive parallel (hash)', mode: 'parallel', collection: 'albums-hash' },
  ];
  for (const row of naiveRows) {
    log(`walking ${row.name}`);
    const target = collection(row.collection);
    await walkNaive(direct.dynamo.items, target, row.mode, options.pageSize);
    const directPages = await repeat(options.passes, () =>
      walkNaive(direct.dynamo.items, target, row.mode, options.pageSize),
    );
    // The sequential loop waits 21 round trips a page: one delayed walk tells enough.
    const delayedPasses = row.mode === 'sequential' ? 1 : options.delayedPasses;
    const delayedPages = await repeat(delayedPasses, () =>
      walkNaive(delayed.dynamo.items, target, row.mode, options.pageSize),
    );
    rows.push(
      rowFigures(
        { name: row.name, kind: 'naive', collection: row.collection, shards: target.map.strategy.shardCount },
        directPages,
        delayedPages,
      ),
    );
  }

  const byName = (name: string) => rows.find((row) => row.name === name)!;
  const one = byName('shardline one shard');
  const range = byName('shardline range');
  const hash = byName('shardline hash');
  const random = byName('shardline random');
  const sequential = byName('naive sequential (hash)');
  const parallel = byName('naive parallel (hash)');
  const targets: TargetCheck[] = [
    check('range: items read ÷ returned (p50)', range.readRatio.p50, 1.15),
    check('range: queries per page (p50)', range.queries.p50, 2),
    // The read budget of one-wave pages (docs/performance.md): a few more items a shard, not a second round trip.
    check('hash: items read ÷ returned (p50)', hash.readRatio.p50, 1.8),
    check('random: items read ÷ returned (p50)', random.readRatio.p50, 1.8),
    check(`hash page ÷ one-shard page, +${options.delayMs} ms (p50)`, hash.delayedMs.p50 / one.delayedMs.p50, 1.5),
    check(`range page ÷ one-shard page, +${options.delayMs} ms (p50)`, range.delayedMs.p50 / one.delayedMs.p50, 2),
    check('hash: sequential round trips per page (p50), one-shard page = 1', hash.roundTrips.p50, 1),
    check('range: sequential round trips per page (p50), one-shard page = 1', range.roundTrips.p50, 2),
    check('range: router CPU ms per page (p50)', range.cpuMs.p50, 8),
    check('hash: router CPU ms per page (p50)', hash.cpuMs.p50, 25),
    ...['shardline range', 'shardline hash'].map((name) => {
      const { router, floor } = floors.get(name)!;
      return check(
        `${name.slice(10)}: router CPU ÷ the floor's (p50 ${router.toFixed(2)} ÷ ${floor.toFixed(2)} ms)`,
        router / floor,
        2.5,
      );
    }),
  ];
  const ratios = {
    sequentialOverHashLatency: sequential.delayedMs.p50 / hash.delayedMs.p50,
    parallelOverHashLatency: parallel.delayedMs.p50 / hash.delayedMs.p50,
    sequentialOverOneShardLatency: sequential.delayedMs.p50 / one.delayedMs.p50,
    parallelOverOneShardLatency: parallel.delayedMs.p50 / one.delayedMs.p50,
    naiveOverHashItemsRead: parallel.readRatio.p50 / hash.readRatio.p50,
    naiveOverHashQueries: parallel.queries.p50 / hash.queries.p50,
    sequentialOverHashCpu: sequential.cpuMs.p50 / hash.cpuMs.p50,
    parallelOverHashCpu: parallel.cpuMs.p50 / hash.cpuMs.p50,
  };

  log('measuring the metrics overhead (metrics on against off)');
  const overhead =
    options.overheadRounds > 0
      ? await metricsOverhead(engine.endpoint, 'albums-hash', {
          pageSize: options.pageSize,
          rounds: options.overheadRounds,
          writesPerRound: 200,
        })
      : undefined;

  const loadAfter = loadavg();
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    node: process.version,
    loadavgBefore: loadBefore,
    loadavgAfter: loadAfter,
  };
  const table = markdownTable(rows, one, options.delayMs);
  process.stdout.write(`\n${table}\n\n${targetLines(targets)}\n\n`);
  process.stdout.write(
    `naive ÷ shardline hash: latency ${ratios.sequentialOverHashLatency.toFixed(1)}× (sequential), ` +
      `${ratios.parallelOverHashLatency.toFixed(2)}× (parallel);` +
      ` items read ${ratios.naiveOverHashItemsRead.toFixed(1)}×; ` +
      `queries ${ratios.naiveOverHashQueries.toFixed(1)}×\n`,
  );
  if (overhead) process.stdout.write(`${overheadLines(overhead)}\n`);
  process.stdout.write(
    `load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')} → ${loadAfter.map((v) => v.toFixed(2)).join(' ')}` +
      ` on ${machine.cpus} cores\n`,
  );

  const dir = resolve(import.meta.dirname, '../bench-results');
  mkdirSync(dir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const json = resolve(dir, `bench-${stamp}.json`);
  writeFileSync(
    json,
    JSON.stringify(
      {
        startedAt,
        options,
        machine,
        loaded: Object.fromEntries(loaded),
        rows,
        floors: Object.fromEntries(floors),
        targets,
        ratios,
        overhead,
        table,
      },
      null,
      2,
    ),
  );
  writeFileSync(
    resolve(dir, `bench-${stamp}.svg`),
    latencyChart(rows, options.delayMs, `shardline bench ${startedAt.toISOString()}`),
  );
  log(`wrote ${json} and .svg`);
} finally {
  await proxy.stop();
  await engine.stop();
}
