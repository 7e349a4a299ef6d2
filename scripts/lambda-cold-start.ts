import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/** One cold start: a fresh Node process imports the bundle and serves one request. */
export interface ColdStart {
  /** Importing the bundle: module evaluation, config resolution, SDK client creation. */
  readonly importMs: number;
  /** The first invocation: table check (DescribeTable) plus the request's own DynamoDB work. */
  readonly firstRequestMs: number;
  /** The same request again, warm: what the first one cost beyond its DynamoDB work. */
  readonly secondRequestMs: number;
  readonly status: number;
}

// Runs in the fresh process. Event: HTTP API (v2), GET `path`.
const CHILD = `
const [bundle, path] = process.argv.slice(1);
const started = performance.now();
const { handler } = await import(bundle);
const imported = performance.now();
const [rawPath, rawQueryString = ''] = path.split('?');
const event = {
  version: '2.0', routeKey: '$default', rawPath, rawQueryString, headers: { host: 'cold.example' },
  requestContext: {
    http: { method: 'GET', path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'cold' },
    domainName: 'cold.example', requestId: 'cold', routeKey: '$default', stage: '$default', timeEpoch: Date.now() },
  isBase64Encoded: false,
};
const result = await handler(event, { awsRequestId: 'cold', getRemainingTimeInMillis: () => 30000 });
const done = performance.now();
await handler(
  { ...event, requestContext: { ...event.requestContext, requestId: 'warm' } },
  { awsRequestId: 'warm', getRemainingTimeInMillis: () => 30000 },
);
const again = performance.now();
console.log(JSON.stringify({
  importMs: imported - started,
  firstRequestMs: done - imported,
  secondRequestMs: again - done,
  status: result.statusCode,
}));
`;

/**
 * Cold starts of the built Lambda bundle, `runs` times, each in a new process with
 * `env` (DYNAMODB_ENDPOINT, TABLE_NAME, ...), serving `path`.
 */
export async function measureColdStarts(
  bundleFile: string,
  env: Record<string, string>,
  path: string,
  runs: number,
): Promise<ColdStart[]> {
  const results: ColdStart[] = [];
  for (let run = 0; run < runs; run++) {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', CHILD, pathToFileURL(bundleFile).href, path],
      { env: { ...process.env, ...env }, timeout: 60_000 },
    );
    results.push(JSON.parse(stdout.trim().split('\n').at(-1)!) as ColdStart);
  }
  return results;
}

/** The middle value (mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * `npx tsx scripts/lambda-cold-start.ts [runs]` after `npm run build`: starts
 * DynamoDB Local (Java), fills a table through the bundle itself, then measures
 * cold starts serving a 100-item listing of albums-hash (21 parallel shard queries).
 */
async function main(): Promise<void> {
  const { startDynamoDbLocal } = await import('../test/support/dynamodb-local');
  const runs = Number(process.argv[2] ?? 5);
  const bundle = resolve(import.meta.dirname, '../dist/lambda/index.mjs');
  const engine = await startDynamoDbLocal();
  try {
    const env = {
      DYNAMODB_ENDPOINT: engine.endpoint,
      AWS_REGION: 'us-east-1',
      TABLE_NAME: `cold-${randomUUID()}`,
      CURSOR_SECRET: 'cold-start',
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
        `import ${start.importMs.toFixed(0)} ms, first request ${start.firstRequestMs.toFixed(0)} ms` +
          ` (status ${start.status}), warm request ${start.secondRequestMs.toFixed(0)} ms`,
      );
    }
    const total = starts.map((start) => start.importMs + start.firstRequestMs);
    const ms = (values: number[]) => `${median(values).toFixed(0)} ms`;
    console.log(
      `median of ${runs}: import ${ms(starts.map((s) => s.importMs))}` +
        ` + first request ${ms(starts.map((s) => s.firstRequestMs))} (median total ${ms(total)})` +
        `; warm request ${ms(starts.map((s) => s.secondRequestMs))}`,
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
const result = await handler({
  version: '2.0', routeKey: '$default', rawPath: '/collections/albums-hash/items/batch', rawQueryString: '',
  headers: { host: 'seed', 'content-type': 'application/json' }, body, isBase64Encoded: false,
  requestContext: {
    http: { method: 'POST', path: '/collections/albums-hash/items/batch', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' },
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

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(`lambda-cold-start failed: ${(error as Error).message}`);
    process.exit(1);
  });
}
