import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prometheusExporter } from '../../src/runtime/node/prometheus';
import type { Service } from '../../src/runtime/service';
import { readSettings } from '../../src/runtime/settings';
import { startTestService } from '../support/service';

const READ_KEY = 'reader-secret-1';
const WRITE_KEY = 'writer-secret-2';
const METRICS_KEY = 'scraper-secret-3';
const PATHS = ['/metrics', '/collections/albums/stats', '/collections/albums/heat'];

/** /metrics, /stats and /heat sit behind the API keys like every route; METRICS_KEY reads /metrics alone. */
describe('access to the observability routes with API keys', () => {
  let service: Service;
  const logged: string[] = [];

  beforeAll(async () => {
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logged.push(String(line)));
    service = await startTestService('dynamodbLocal', {
      env: { API_KEYS: `${READ_KEY}:read,${WRITE_KEY}:write`, METRICS_KEY, LOG_LEVEL: 'info' },
      metrics: prometheusExporter,
    });
  });
  afterAll(() => vi.restoreAllMocks());

  const status = async (path: string, key?: string, method = 'GET') =>
    (await service.app.request(path, { method, ...(key && { headers: { authorization: `Bearer ${key}` } }) })).status;

  it('answers 401 without a key and 200 with a read or write key', async () => {
    for (const path of PATHS) {
      expect(await status(path), path).toBe(401);
      expect(await status(path, READ_KEY), path).toBe(200);
      expect(await status(path, WRITE_KEY), path).toBe(200);
    }
  });

  it('lets the metrics key read /metrics and nothing else', async () => {
    expect(await status('/metrics', METRICS_KEY)).toBe(200);
    expect(await status('/collections/albums/stats', METRICS_KEY)).toBe(403);
    expect(await status('/collections/albums/items', METRICS_KEY)).toBe(403);
    expect(await status('/collections', METRICS_KEY)).toBe(403);
    expect(await status('/metrics', METRICS_KEY, 'POST')).toBe(403);
  });

  it("logs the caller's key name, never the key", async () => {
    logged.length = 0;
    await status('/collections/albums/stats', WRITE_KEY);
    await status('/metrics', METRICS_KEY);
    const [stats, metrics] = logged.map((line) => JSON.parse(line));
    expect(stats).toMatchObject({ caller: 'key#2', route: '/collections/:collection/stats', status: 200 });
    expect(metrics).toMatchObject({ caller: 'metrics-key', route: '/metrics', status: 200 });
    for (const key of [READ_KEY, WRITE_KEY, METRICS_KEY]) expect(logged.join('\n')).not.toContain(key);
  });

  it('refuses a metrics key without API keys, or one that repeats an API key', () => {
    expect(() => readSettings({ METRICS_KEY })).toThrow(/METRICS_KEY needs API_KEYS/);
    expect(() => readSettings({ METRICS_KEY: READ_KEY, API_KEYS: `${READ_KEY}:read` })).toThrow(/repeats/);
  });
});
