import { mountDocsAssets } from '../../src/http/docs/assets';
import { packageDocsAssets } from '../../src/http/docs/file-assets';
import { buildService, type Service } from '../../src/runtime/service';
import { readSettings } from '../../src/runtime/settings';
import { demoConfig } from './service';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The Node runtime's app as src/runtime/node/main.ts builds it (docs assets from
 * swagger-ui-dist), over an endpoint nobody listens on: the docs never touch DynamoDB.
 */
export function docsService(env: Record<string, string> = {}): Service {
  const service = buildService(
    readSettings({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', CURSOR_SECRET: 'docs', LOG_LEVEL: 'off', ...env }),
    demoConfig(),
    {
      readBoundaries: (file) => JSON.parse(readFileSync(resolve(import.meta.dirname, '../../config', file), 'utf8')),
      client: { credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' } },
    },
  );
  mountDocsAssets(service.app, packageDocsAssets());
  return service;
}
