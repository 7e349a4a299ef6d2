import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { measureColdStarts } from '../devtools/cold-start';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { median } from '../devtools/stats';
import { numberArg, parseCommandLine } from '../src/cli/command-line';

/**
 * `npx tsx scripts/lambda-cold-start.ts [runs]` after `npm run build`: starts
 * DynamoDB Local (Java), fills a table through the bundle itself, then measures
 * cold starts serving a 100-item listing of albums-hash (21 parallel shard queries).
 */
const USAGE = `Usage: tsx scripts/lambda-cold-start.ts [RUNS]   (after npm run build)

Cold starts of dist/lambda/index.mjs serving a 100-item listing, RUNS times (default 5).
  --help`;

async function main(): Promise<void> {
  const runs = parseCommandLine('lambda-cold-start', USAGE, { allowPositionals: true }, ({ positionals }) =>
    numberArg('runs', positionals[0] ?? '5', { min: 1, integer: true }),
  );
  const bundle = resolve(import.meta.dirname, '../dist/lambda/index.mjs');
  const engine = await startDynamoDbLocal();
  try {
    const env = {
      DYNAMODB_ENDPOINT: engine.endpoint,
      AWS_REGION: 'us-east-1',
      TABLE_NAME: `cold-${randomUUID()}`,
      CURSOR_SECRET: 'cold-start-secret-cold-start-secret',
    };
    await seed(bundle, env); // creates the table too
    const starts = await measureColdStarts(
      bundle,
      { ...env, SHARDLINE_CREATE_TABLE: 'false' },
      '/collections/albums-hash/items?limit=100',
      runs,
    );
    for (const start of starts) {
      console.log(
        `import ${start.importMs.toFixed(0)} ms, first request ${start.firstRequestMs.toFixed(0)} ms ` +
          `(status ${start.status}), warm request ${start.secondRequestMs.toFixed(0)} ms`,
      );
    }
    const total = starts.map((start) => start.importMs + start.firstRequestMs);
    console.log(
      `median of ${runs}: import ${median(starts.map((s) => s.importMs)).toFixed(0)} ms` +
        ` + first request ${median(starts.map((s) => s.firstRequestMs)).toFixed(0)} ms` +
        ` (median total ${median(total).toFixed(0)} ms);` +
        ` warm request ${median(starts.map((s) => s.secondRequestMs)).toFixed(0)} ms`,
    );
  } finally {
    await engine.stop();
  }
}

/** 200 items written through the bundle's batch route, in a child process. */
async function seed(bundle: string, env: Record<string, string>): Promise<void> {
  const items = Array.from({ length: 200 }, (_, i) => ({ pk: `cold-${i}`, sk: 's', title: `title ${i} 🎸` }));
  const code = `
const { handler } = await import(process.argv[1]);
const body = process.argv[2];
const path = '/collections/albums-hash/items/batch';
const result = await handler({ version: '2.0', routeKey: '$default', rawPath: path, rawQueryString: '',
  headers: { host: 'seed', 'content-type': 'application/json' }, body, isBase64Encoded: false,
  requestContext: { http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' },
    domainName: 'seed', requestId: 'seed', routeKey: '$default', stage: '$default', timeEpoch: Date.now() } }, {});
if (result.statusCode !== 200) throw new Error(result.body);`;
  await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', code, pathToFileURL(bundle).href, JSON.stringify({ items })],
    {
      env: { ...process.env, ...env, SHARDLINE_CREATE_TABLE: 'true' },
    },
  );
}

main().catch((error: unknown) => {
  console.error(`lambda-cold-start failed: ${(error as Error).message}`);
  process.exit(1);
});
