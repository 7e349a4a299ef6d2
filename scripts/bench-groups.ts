/**
 * `npm run bench:groups`: what grouped collections cost, on DynamoDB Local started here.
 *
 * One grouped collection (orders by customer, newest first). A cold group (one shard) is walked page
 * by page through the router in this process, in turns with its floor: the same partition paged by
 * one DynamoDB Query a page through the AWS SDK. The whale, a group grown to 8 shards before its
 * orders were written, is walked in the same turns. Then the cold group is grown to 8 shards and the
 * whale shrunk to 2, with a short settle time; the whale is walked once more to check that it lists
 * every order. Prints Markdown tables (medians over every page; p99 of the latency).
 */
import { loadavg } from 'node:os';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { seededRandom } from '../devtools/random';
import { numberArg, parseCommandLine } from '../src/cli/command-line';
import { groupPrefix } from '../src/core/group-key';
import { shardKey } from '../src/core/index-key';
import { GROUPED, groupBenchService, loadGroup, routedGrouped, timedResize } from './bench/group-fixture';
import { floorTable, resizeTable, routerFigures, sdkFigures, whaleTable } from './bench/group-report';
import type { PageSample } from './bench/page-sample';
import { walkListing } from './bench/walk-router';
import { plainDocumentClient, walkSdkQuery, type SdkPage } from './bench/walk-sdk-query';

const USAGE = `Usage: npm run bench:groups [-- options]

A cold group's page against one plain DynamoDB Query of it (the AWS SDK), the whale's page (a group
on 8 shards) against a cold one, and what growing and shrinking a group cost, over DynamoDB Local.

  --cold-items N   orders of the cold group (default 1000)
  --whale-items N  orders of the whale (default 4000)
  --page N         page size (default 100)
  --passes N       walks of each group, in turns (default 10)
  --settle-ms MS   a resize's settle time (default 300; production's: 3 map TTLs + the deadline + 1 s)
  --seed N         seed of the generated orders (default 7)
  --help`;

const options = parseCommandLine(
  'bench:groups',
  USAGE,
  {
    options: {
      'cold-items': { type: 'string', default: '1000' },
      'whale-items': { type: 'string', default: '4000' },
      page: { type: 'string', default: '100' },
      passes: { type: 'string', default: '10' },
      'settle-ms': { type: 'string', default: '300' },
      seed: { type: 'string', default: '7' },
    },
  },
  ({ values }) => ({
    coldItems: numberArg('cold-items', values['cold-items'], { min: 1, integer: true }),
    whaleItems: numberArg('whale-items', values['whale-items'], { min: 1, integer: true }),
    pageSize: numberArg('page', values.page, { min: 1, integer: true }),
    passes: numberArg('passes', values.passes, { min: 1, integer: true }),
    settleMs: numberArg('settle-ms', values['settle-ms'], { min: 0, integer: true }),
    seed: numberArg('seed', values.seed, { integer: true }),
  }),
);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const log = (line: string) => process.stderr.write(`bench:groups: ${line}\n`);
const WHALE_SHARDS = 8;
const SHRUNK_TO = 2;
// A settle time covers three map TTLs, as production's does.
const mapTtlMs = Math.max(10, Math.floor(options.settleMs / 4));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadBefore = loadavg();

log('starting DynamoDB Local');
const engine = await startDynamoDbLocal();
try {
  const table = `bench-groups-${Date.now()}`;
  const service = await groupBenchService(engine.endpoint, table, mapTtlMs);
  const random = seededRandom(options.seed);
  log(`loading ${options.coldItems} orders of the cold group`);
  await loadGroup(service, 'cold', options.coldItems, random);
  const whaleGrow = await timedResize(service, 'whale', WHALE_SHARDS, options.settleMs);
  // A settle time on, the router routes by the stable map: every order goes to one of the 8 shards.
  await sleep(options.settleMs);
  log(`loading ${options.whaleItems} orders of the whale, on ${WHALE_SHARDS} shards`);
  await loadGroup(service, 'whale', options.whaleItems, random);

  const collection = await routedGrouped(service);
  const floorClient = plainDocumentClient(engine.endpoint);
  const partition = {
    table: collection.table,
    index: collection.map.index.name,
    partitionAttribute: collection.map.index.shardKeyAttribute,
    partition: shardKey(groupPrefix(collection.prefix, 'cold'), 0),
  };
  const walkGroup = (group: string) =>
    walkListing(service.app, `/collections/${GROUPED}/groups/${group}/items`, options.pageSize);
  const expectCount = (what: string, pages: readonly { returned: number }[], count: number) => {
    const returned = pages.reduce((sum, page) => sum + page.returned, 0);
    if (returned !== count) throw new Error(`${what} returned ${returned} orders, not ${count}`);
  };

  log(`walking each group ${options.passes} times, in turns with the floor (and once more to warm up)`);
  const cold: PageSample[] = [];
  const whale: PageSample[] = [];
  const floor: SdkPage[] = [];
  for (let pass = -1; pass < options.passes; pass++) {
    const coldPages = await walkGroup('cold');
    const floorPages = await walkSdkQuery(floorClient, partition, options.pageSize);
    const whalePages = await walkGroup('whale');
    expectCount('the cold group', coldPages, options.coldItems);
    expectCount('the floor', floorPages, options.coldItems);
    expectCount('the whale', whalePages, options.whaleItems);
    if (pass < 0) continue;
    cold.push(...coldPages);
    floor.push(...floorPages);
    whale.push(...whalePages);
  }
  floorClient.destroy();

  log(`growing the cold group to ${WHALE_SHARDS} shards, then shrinking the whale to ${SHRUNK_TO}`);
  const coldGrow = await timedResize(service, 'cold', WHALE_SHARDS, options.settleMs);
  const whaleShrink = await timedResize(service, 'whale', SHRUNK_TO, options.settleMs);
  await sleep(options.settleMs);
  expectCount('the whale after its shrink', await walkGroup('whale'), options.whaleItems);
  service.dynamo.destroy();

  const coldFigures = routerFigures(cold);
  const loadAfter = loadavg();
  console.log(
    `\n${options.passes} walks a group in pages of ${options.pageSize}: cold ${options.coldItems} orders, ` +
      `whale ${options.whaleItems}; Node ${process.versions.node}; load average ` +
      `${loadBefore[0]!.toFixed(1)} → ${loadAfter[0]!.toFixed(1)}\n`,
  );
  console.log(`${floorTable(coldFigures, sdkFigures(floor))}\n`);
  console.log(`${whaleTable(routerFigures(whale), coldFigures, WHALE_SHARDS)}\n`);
  console.log(
    resizeTable([
      { name: `grow the cold group 1 → ${WHALE_SHARDS} (${options.coldItems} orders)`, outcome: coldGrow },
      { name: `grow the whale 1 → ${WHALE_SHARDS} (before its orders)`, outcome: whaleGrow },
      { name: `shrink the whale ${WHALE_SHARDS} → ${SHRUNK_TO} (${options.whaleItems} orders)`, outcome: whaleShrink },
    ]),
  );
  console.log(
    `\nsettle time ${options.settleMs} ms a change (map TTL ${mapTtlMs} ms); a resize waits it once; ` +
      'write units as DynamoDB Local reports them (table and index)',
  );
} finally {
  await engine.stop();
}
