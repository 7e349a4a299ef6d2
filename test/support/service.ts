import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { inject } from 'vitest';
import { buildService, prepareTables, type Service } from '../../src/runtime/service';
import { readSettings, type EnvMap } from '../../src/runtime/settings';
import type { EngineEndpoints } from './global-setup';

export const ENGINES: (keyof EngineEndpoints)[] = ['dynamodbLocal', 'dynalite'];
const ROOT = resolve(import.meta.dirname, '../..');

export function demoConfig(): unknown {
  return JSON.parse(readFileSync(resolve(ROOT, 'config/shardline.config.json'), 'utf8'));
}

/**
 * The real service (config, store, Hono app) over one of the engines the run
 * started, on a fresh table of its own so test files never see each other's data.
 */
export async function startTestService(
  engine: keyof EngineEndpoints,
  options: { config?: unknown; env?: EnvMap } = {},
): Promise<Service & { table: string }> {
  const table = `t-${randomUUID()}`;
  const settings = readSettings({
    DYNAMODB_ENDPOINT: inject('engines')[engine],
    TABLE_NAME: table,
    CURSOR_SECRET: 'test-secret',
    ...options.env,
  });
  const service = buildService(settings, options.config ?? demoConfig(), {
    readBoundaries: (file) => JSON.parse(readFileSync(resolve(ROOT, 'config', file), 'utf8')),
    client: { credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' } },
  });
  await prepareTables(service, true);
  return { ...service, table };
}
