/**
 * `npm run load` — concurrent writers and readers against the Node server for a
 * fixed time, then checks that every acknowledged write is visible in the listings.
 *
 *   npm run load                          # 60 s, 16 connections, embedded engine
 *   npm run load -- --duration 10         # shorter
 *   npm run load -- --connections 32 --listing-share 0.3
 *   npm run load -- --engine dynamodb-local   # DynamoDB Local (the test run's jar) in its own process
 *   npm run load -- --help
 *   DYNAMODB_ENDPOINT=http://127.0.0.1:8000 npm run load   # a DynamoDB-compatible engine (new table)
 *
 * Prints throughput, p50/p99 latency (all requests, and writes and listings
 * apart), errors by status, and the server's memory (RSS, heap after a full GC)
 * before and after. Exits non-zero if any request failed, a write is missing
 * afterwards, or RSS grew by 200 MiB or more. A script, not a timed test.
 *
 * With the embedded engine, dynalite runs inside the server process, so its memory
 * is counted too; `--engine dynamodb-local` measures the router alone.
 */
import autocannon from 'autocannon';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { pick, seededRandom } from '../devtools/random';
import { quantile } from '../devtools/stats';
import { randomTitle } from '../devtools/titles';
import { invalidRequest } from '../src/core/errors';
import { numberArg, parseCommandLine } from '../src/cli/command-line';
import { startServerProcess } from './bench/server-process';

const COLLECTIONS = ['albums', 'albums-hash', 'albums-random'];
const MIB = 1024 * 1024;
const GROWTH_LIMIT_MIB = 200;

const USAGE = `Usage: npm run load [-- options]

Concurrent writers and readers against the Node server for a fixed time, then checks
that every acknowledged write is listed. Exits 1 if a request failed, a write is
missing or RSS grew by ${GROWTH_LIMIT_MIB} MiB or more. DYNAMODB_ENDPOINT=URL uses that
engine (a new table) instead of --engine.

  --duration S          seconds of load (default 60)
  --connections N       concurrent connections (default 16)
  --listing-share F     share of requests that are listings, 0 to 1 (default 0.5)
  --seed N              seed of the generated writes and listings (default 1)
  --engine E            embedded (dynalite in the server process, default) or
                        dynamodb-local (the test run's jar, in its own process)
  --help`;

const args = parseCommandLine(
  'load',
  USAGE,
  {
    options: {
      duration: { type: 'string', default: '60' },
      connections: { type: 'string', default: '16' },
      'listing-share': { type: 'string', default: '0.5' },
      seed: { type: 'string', default: '1' },
      engine: { type: 'string', default: 'embedded' },
    },
  },
  ({ values }) => {
    if (values.engine !== 'embedded' && values.engine !== 'dynamodb-local') {
      throw invalidRequest(`--engine is embedded or dynamodb-local, not ${values.engine}`);
    }
    const listingShare = numberArg('listing-share', values['listing-share']);
    if (listingShare > 1) throw invalidRequest(`--listing-share is from 0 to 1, not ${listingShare}`);
    return {
      durationSeconds: numberArg('duration', values.duration, { min: 1 }),
      connections: numberArg('connections', values.connections, { min: 1, integer: true }),
      listingShare,
      seed: numberArg('seed', values.seed, { integer: true }),
      engine: values.engine,
    };
  },
);
const { durationSeconds, connections, listingShare } = args;

interface Written {
  collection: string;
  pk: string;
  sk: string;
}

const random = seededRandom(args.seed);

async function main(): Promise<void> {
  const local =
    !process.env.DYNAMODB_ENDPOINT && args.engine === 'dynamodb-local' ? await startDynamoDbLocal() : undefined;
  const endpoint = process.env.DYNAMODB_ENDPOINT || local?.endpoint;
  console.log(`starting the server over ${endpoint ?? 'the embedded engine'} …`);
  const server = await startServerProcess(endpoint).catch(async (error: unknown) => {
    await local?.stop();
    throw error;
  });
  const { base } = server;
  try {
    const before = await server.memory();

    const written: Written[] = [];
    const statuses = new Map<string, number>();
    const latency = { write: [] as number[], listing: [] as number[] };
    let sequence = 0;
    const count = (kind: string, status: number) =>
      statuses.set(`${kind} ${status}`, (statuses.get(`${kind} ${status}`) ?? 0) + 1);

    console.log(`${connections} connections for ${durationSeconds} s, ${Math.round(listingShare * 100)}% listings …`);
    const result = await autocannon({
      url: base,
      connections,
      duration: durationSeconds,
      requests: [
        {
          setupRequest: (request, context) => {
            const ctx = context as { kind?: string; item?: Written; started?: number };
            ctx.started = performance.now();
            if (random() < listingShare) {
              ctx.kind = 'listing';
              return { ...request, method: 'GET', path: listingPath(), headers: {}, body: undefined } as typeof request;
            }
            const collection = COLLECTIONS[sequence % COLLECTIONS.length]!;
            const item = {
              pk: `load-${process.pid}-${sequence++}`,
              sk: 'item',
              title: randomTitle(random),
              n: sequence,
              tags: ['load', 'test'],
            };
            ctx.kind = 'write';
            ctx.item = { collection, pk: item.pk, sk: item.sk };
            return {
              ...request,
              method: 'PUT',
              path: `/collections/${collection}/items`,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(item),
            } as typeof request;
          },
          onResponse: (status, _body, context) => {
            const ctx = context as { kind?: string; item?: Written; started?: number };
            const kind = ctx.kind ?? 'unknown';
            count(kind, status);
            if (ctx.started !== undefined)
              (kind === 'write' ? latency.write : latency.listing).push(performance.now() - ctx.started);
            if (kind === 'write' && status === 201 && ctx.item) written.push(ctx.item);
          },
        },
      ],
    });

    const after = await server.memory();
    console.log('\nverifying every acknowledged write is listed …');
    const missing = await verify(base, written);

    const total = result.requests.total;
    const failures =
      [...statuses].filter(([key]) => !/ (200|201)$/.test(key)).reduce((sum, [, n]) => sum + n, 0) + result.errors;
    const lat = result.latency as unknown as Record<string, number>;
    const growth = (after.rss - before.rss) / MIB;
    const engine = local
      ? 'DynamoDB Local (own process)'
      : endpoint
        ? `endpoint ${endpoint}`
        : 'embedded engine (dynalite in the server process, LevelDB on disk)';
    // A backslash at a line's end continues it: the report's lines are longer than the code's.
    console.log(`
shardline load: ${connections} connections, ${result.duration.toFixed(1)} s, ${engine}
  requests     ${total} (${(total / result.duration).toFixed(0)}/s): \
${latency.write.length} writes (${(latency.write.length / result.duration).toFixed(0)}/s), \
${latency.listing.length} listings (${(latency.listing.length / result.duration).toFixed(0)}/s)
  latency      all p50 ${lat.p50} ms, p99 ${lat.p99} ms, max ${lat.max} ms
               writes p50 ${pct(latency.write, 50)} ms, p99 ${pct(latency.write, 99)} ms; \
listings p50 ${pct(latency.listing, 50)} ms, p99 ${pct(latency.listing, 99)} ms
  statuses     ${[...statuses]
    .sort()
    .map(([key, n]) => `${key}: ${n}`)
    .join(', ')}
  errors       ${failures} (connection errors ${result.errors}, timeouts ${result.timeouts})
  visible      ${written.length - missing} of ${written.length} acknowledged writes listed afterwards
  memory       RSS ${mib(before.rss)} → ${mib(after.rss)} MiB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MiB); \
heap used ${mib(before.heapUsed)} → ${mib(after.heapUsed)} MiB; \
external ${mib(before.external)} → ${mib(after.external)} MiB`);
    const ok = failures === 0 && missing === 0 && growth < GROWTH_LIMIT_MIB && written.length > 0;
    console.log(
      ok
        ? '\nOK'
        : `\nFAILED${failures ? ` — ${failures} failed requests` : ''}` +
            `${missing ? ` — ${missing} writes missing` : ''}` +
            `${growth >= GROWTH_LIMIT_MIB ? ` — RSS grew ${growth.toFixed(0)} MiB` : ''}`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await server.stop();
    await local?.stop();
  }
}

function listingPath(): string {
  const collection = pick(random, COLLECTIONS);
  const limit = pick(random, [10, 50, 100, 100, 250]);
  const order = random() < 0.5 ? 'asc' : 'desc';
  const roll = random();
  // A title's first word: prefixes and ranges that real listings ask for, in every script the titles use.
  const word = randomTitle(random).split(' ')[0]!;
  const filter =
    roll < 0.5
      ? ''
      : roll < 0.8
        ? `&prefix=${encodeURIComponent(word)}`
        : `&from=${encodeURIComponent(word)}&to=${encodeURIComponent(`${word}~`)}`;
  return `/collections/${collection}/items?limit=${limit}&order=${order}${filter}`;
}

/** Pages through every collection's full listing and counts acknowledged writes not in it (or listed twice). */
async function verify(base: string, written: Written[]): Promise<number> {
  let missing = 0;
  for (const collection of COLLECTIONS) {
    const seen = new Set<string>();
    let duplicates = 0;
    let cursor: string | null = null;
    do {
      const query: string = `limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await fetch(`${base}/collections/${collection}/items?${query}`);
      if (response.status !== 200)
        throw new Error(`verification listing of ${collection} answered ${response.status}: ${await response.text()}`);
      const page = (await response.json()) as { items: { pk: string; sk: string }[]; nextCursor: string | null };
      for (const item of page.items) {
        const key = `${item.pk}\u0000${item.sk}`;
        if (seen.has(key)) duplicates++;
        seen.add(key);
      }
      cursor = page.nextCursor;
    } while (cursor);
    const expected = written.filter((w) => w.collection === collection);
    const absent = expected.filter((w) => !seen.has(`${w.pk}\u0000${w.sk}`)).length;
    console.log(
      `  ${collection}: ${seen.size} listed, ${expected.length} written by this run,` +
        ` ${absent} missing, ${duplicates} duplicates`,
    );
    missing += absent + duplicates;
  }
  return missing;
}

/** The p-th percentile in ms, one decimal; '-' when nothing was measured. */
function pct(values: number[], p: number): string {
  return values.length === 0 ? '-' : quantile(values, p / 100).toFixed(1);
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}

main().catch((error: unknown) => {
  console.error(`load failed: ${(error as Error).message}`);
  process.exit(1);
});
