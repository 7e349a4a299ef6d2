/**
 * `npm run bench:parts`: what entities in parts cost against whole items, as DynamoDB reports it.
 * Over DynamoDB Local (which reports consumed capacity as DynamoDB does), the service in this
 * process: for entities of 10 KB, 150 KB and 1 MB, PUT, PATCH of the e-mail, GET and GET
 * `fields=email`, in `profiles-whole` (one item) and `profiles` (in parts: the e-mail in its
 * own part, devtools/parts-entities.ts). Prints write and read units (`x-consumed-wcu`,
 * `x-consumed-rcu`) and the median latency of `--runs` entities each.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { profile, withProfileCollections } from '../devtools/parts-entities';
import { median } from '../devtools/stats';
import { numberArg, parseCommandLine } from '../src/cli/command-line';
import { buildService, prepareTables } from '../src/runtime/service';
import { readSettings } from '../src/runtime/settings';

const USAGE = `Usage: npm run bench:parts -- [--runs N]

Write and read units and median latency per operation (PUT, PATCH one field, GET,
GET fields=one) for whole items against entities in parts, at 10 KB, 150 KB and 1 MB,
over DynamoDB Local. N entities per size and collection (default 5).`;

const options = parseCommandLine(
  'bench:parts',
  USAGE,
  { options: { runs: { type: 'string', default: '5' } } },
  ({ values }) => ({ runs: numberArg('runs', values.runs, { min: 1, integer: true }) }),
);

const ROOT = resolve(import.meta.dirname, '..');
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const engine = await startDynamoDbLocal();
try {
  const settings = readSettings({
    DYNAMODB_ENDPOINT: engine.endpoint,
    TABLE_NAME: `bench-parts-${randomUUID()}`,
    CURSOR_SECRET: 'bench-parts',
    LOG_LEVEL: 'off',
    SHARDLINE_TABLE_STREAM: 'off',
  });
  const config = withProfileCollections(readJson(resolve(ROOT, 'config/shardline.config.json')));
  const service = buildService(settings, config, {
    readBoundaries: (file) => readJson(resolve(ROOT, 'config', file)),
    client: { credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' } },
  });
  await prepareTables(service, true, false);

  interface Figure {
    wcu: number;
    rcu: number;
    ms: number[];
    refused?: string;
  }
  const call = async (figure: Figure, method: string, path: string, body?: unknown) => {
    const started = performance.now();
    const response = await service.app.request(path, {
      method,
      ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const text = await response.text();
    figure.ms.push(performance.now() - started);
    if (response.status >= 300) figure.refused = `${response.status} ${JSON.parse(text).error.code}`;
    figure.wcu = Number(response.headers.get('x-consumed-wcu'));
    figure.rcu = Number(response.headers.get('x-consumed-rcu'));
  };

  const operations = ['PUT', 'PATCH email', 'GET', 'GET fields=email'] as const;
  const rows: string[][] = [['size', 'operation', 'whole: WCU', 'RCU', 'ms', 'parts: WCU', 'RCU', 'ms']];
  for (const kb of [10, 150, 1024]) {
    const figures = new Map<string, Figure>();
    for (const collection of ['profiles-whole', 'profiles']) {
      const of = (operation: string) => {
        const key = `${collection} ${operation}`;
        if (!figures.has(key)) figures.set(key, { wcu: 0, rcu: 0, ms: [] });
        return figures.get(key)!;
      };
      for (let run = 0; run < options.runs; run++) {
        const id = `${collection}-${kb}-${run}`;
        const item = `/collections/${collection}/item?pk=${id}&sk=profile`;
        await call(of('PUT'), 'PUT', `/collections/${collection}/items`, profile(id, kb));
        if (of('PUT').refused) break;
        await call(of('PATCH email'), 'PATCH', item, { email: `new-${id}@example.com` });
        await call(of('GET'), 'GET', item);
        await call(of('GET fields=email'), 'GET', `${item}&fields=email`);
      }
    }
    for (const operation of operations) {
      const cells = ['profiles-whole', 'profiles'].flatMap((collection) => {
        const figure = figures.get(`${collection} ${operation}`);
        if (!figure) return ['—', '—', '—'];
        if (figure.refused) return [figure.refused, '', ''];
        return [String(figure.wcu), String(figure.rcu), median(figure.ms).toFixed(1)];
      });
      rows.push([kb >= 1024 ? `${kb / 1024} MB` : `${kb} KB`, operation, ...cells]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
} finally {
  await engine.stop();
}
