import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildService } from '../src/runtime/service';
import { readSettings } from '../src/runtime/settings';

/**
 * `tsx scripts/openapi-document.ts [out.json]`: the document GET /openapi.json serves, from the app built
 * as the tests build it (the demo config, an endpoint nobody listens on: the document never touches
 * DynamoDB), printed or written to a file, so that OpenAPI linters can read it.
 */
const ROOT = resolve(import.meta.dirname, '..');

export async function openapiDocument(): Promise<unknown> {
  const { app } = buildService(
    readSettings({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', CURSOR_SECRET: 'docs', LOG_LEVEL: 'off' }),
    JSON.parse(readFileSync(resolve(ROOT, 'config/shardline.config.json'), 'utf8')),
    {
      readBoundaries: (file) => JSON.parse(readFileSync(resolve(ROOT, 'config', file), 'utf8')),
      client: { credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' } },
    },
  );
  const response = await app.request('/openapi.json');
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  return response.json();
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const text = `${JSON.stringify(await openapiDocument(), null, 2)}\n`;
  const out = process.argv[2];
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
}
