import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { inject } from 'vitest';
import type { RouterMetrics } from '../../src/service/metrics/router-metrics';
import { buildService, prepareTables, type RuntimeMetrics, type Service } from '../../src/runtime/service';
import { readSettings, type EnvMap } from '../../src/runtime/settings';
import { contractChecked } from './contract';
import type { EngineEndpoints } from './global-setup';

export const ENGINES: (keyof EngineEndpoints)[] = ['dynamodbLocal', 'dynalite'];
const ROOT = resolve(import.meta.dirname, '../..');

export function demoConfig(): unknown {
  return JSON.parse(readFileSync(resolve(ROOT, 'config/shardline.config.json'), 'utf8'));
}

/** A demo collection's boundaries file, as the config names it. */
export function demoBoundaries(file: string): unknown {
  return JSON.parse(readFileSync(resolve(ROOT, 'config', file), 'utf8'));
}

/**
 * The real service (config, store, Hono app) over one of the engines the run
 * started, on a fresh table of its own so test files never see each other's data.
 * Every answer of its app is held against the OpenAPI document (test/support/contract.ts): one that does not
 * conform throws, so a test that gets one fails.
 */
export async function startTestService(
  engine: keyof EngineEndpoints,
  options: {
    config?: unknown;
    env?: EnvMap;
    metrics?: (stats: RouterMetrics) => RuntimeMetrics;
    random?: () => number;
    /** The service's clock (test/support/clock.ts): load minutes and map TTLs pass when the test says. */
    now?: () => number;
  } = {},
): Promise<Service & { table: string }> {
  const table = `t-${randomUUID()}`;
  const settings = readSettings({
    DYNAMODB_ENDPOINT: inject('engines')[engine],
    TABLE_NAME: table,
    CURSOR_SECRET: 'test-secret',
    // The request log stays out of test output (vitest.config.ts sets it off) unless a test asks for it.
    LOG_LEVEL: process.env.LOG_LEVEL,
    // Off for the test run (vitest.config.ts): DynamoDB Local slows down as its streams fill up.
    SHARDLINE_TABLE_STREAM: process.env.SHARDLINE_TABLE_STREAM,
    // Off for the test run (vitest.config.ts) but where a test asks: they are what needs TTL on a table.
    SHARDLINE_LOAD_RECORDS: process.env.SHARDLINE_LOAD_RECORDS,
    ...options.env,
  });
  const service = buildService(settings, options.config ?? demoConfig(), {
    readBoundaries: demoBoundaries,
    client: { credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' } },
    ...(options.metrics && { metrics: options.metrics }),
    ...(options.random && { random: options.random }),
    ...(options.now && { now: options.now }),
  });
  await prepareTables(service, true, settings.tableStream);
  return { ...service, app: contractChecked(service.app), table };
}
