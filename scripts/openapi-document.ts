import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildService } from '../src/runtime/service';
import { readSettings } from '../src/runtime/settings';

/**
 * `tsx scripts/openapi-document.ts [out.json]`: the document GET /openapi.json serves, from the app built
 * as the tests build it (the demo config, an endpoint nobody listens on: the document never touches
 * DynamoDB), printed or written to a file, so that OpenAPI linters can read it. Every optional route is
 * in: /stats and /heat (statistics on), and /metrics, which only runtimes with an exposition serve.
 */
const ROOT = resolve(import.meta.dirname, '..');

export async function openapiDocument(): Promise<unknown> {
  const { app } = buildService(
    readSettings({
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
      CURSOR_SECRET: 'docs',
      LOG_LEVEL: 'off',
      SHARDLINE_METRICS: 'true',
    }),
    JSON.parse(readFileSync(resolve(ROOT, 'config/shardline.config.json'), 'utf8')),
    {
      readBoundaries: (file) => JSON.parse(readFileSync(resolve(ROOT, 'config', file), 'utf8')),
      client: { credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' } },
      metrics: () => ({ exposition: async () => ({ contentType: 'text/plain', body: '' }) }),
    },
  );
  const response = await app.request('/openapi.json');
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  return response.json();
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  // The SDK's notice that its 2027 releases need Node 22 is for operators, not for a document on stdout.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const text = `${JSON.stringify(await openapiDocument(), null, 2)}\n`;
  const out = process.argv[2];
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text);
  } else process.stdout.write(text);
}
