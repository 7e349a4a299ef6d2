/**
 * `npm run bench:profile`: where a listing page's router CPU goes (docs/performance.md).
 *
 * Loads seed-shaped items on DynamoDB Local (as `npm run bench` does), warms up, then walks
 * one listing again and again under V8's sampling profiler and prints the self time of the
 * busy samples by where the code lives (shardline's folders, each package, Node itself,
 * the garbage collector) and the heaviest functions. `--out FILE` also writes the
 * `.cpuprofile`, which Chrome DevTools and speedscope open.
 *
 * Options: `npm run bench:profile -- --help`.
 */
import { writeFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector/promises';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { benchService, loadItems } from './bench/fixture';
import { walkRouter } from './bench/walk-router';
import { numberArg, parseCommandLine } from '../src/cli/command-line';
import { profileSummary } from './bench/profile-summary';

const USAGE = `Usage: npm run bench:profile [-- options]

Profiles the router's CPU over whole listing walks on DynamoDB Local and prints where it goes.

  --collection NAME  the listing to walk (default albums; albums-hash is the 21-shard one)
  --items N          items per collection (default 4200)
  --walks N          profiled walks (default 8)
  --top N            functions to list (default 25)
  --out FILE         also write the .cpuprofile there
  --help`;

const options = parseCommandLine(
  'bench:profile',
  USAGE,
  {
    options: {
      collection: { type: 'string', default: 'albums' },
      items: { type: 'string', default: '4200' },
      walks: { type: 'string', default: '8' },
      top: { type: 'string', default: '25' },
      out: { type: 'string' },
    },
  },
  ({ values }) => ({
    collection: values.collection,
    items: numberArg('items', values.items, { min: 1, integer: true }),
    walks: numberArg('walks', values.walks, { min: 1, integer: true }),
    top: numberArg('top', values.top, { min: 1, integer: true }),
    out: values.out,
  }),
);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const log = (line: string) => process.stderr.write(`bench:profile: ${line}\n`);

log('starting DynamoDB Local');
const engine = await startDynamoDbLocal();
try {
  const service = benchService(engine.endpoint);
  log(`loading ${options.items} items into each collection`);
  await loadItems(service, options.items, 4);
  for (let i = 0; i < 2; i++) await walkRouter(service.app, options.collection, 100);

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  let pages = 0;
  for (let i = 0; i < options.walks; i++) pages += (await walkRouter(service.app, options.collection, 100)).length;
  const { profile } = (await session.post('Profiler.stop')) as { profile: Profiler.Profile };
  session.disconnect();

  if (options.out) writeFileSync(options.out, JSON.stringify(profile));
  process.stdout.write(`${options.collection}: ${pages} pages of 100 profiled\n\n`);
  process.stdout.write(`${profileSummary(profile, pages, options.top)}\n`);
} finally {
  await engine.stop();
}
