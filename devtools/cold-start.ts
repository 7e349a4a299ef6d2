import { execFile } from 'node:child_process';
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
  importMs: imported - started, firstRequestMs: done - imported, secondRequestMs: again - done,
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
