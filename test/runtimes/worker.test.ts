import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { get, put } from '../support/http';
import { startWorkerRuntime, type RunningRuntime } from './support/runtimes';

describe('the Worker in workerd (wrangler dev) over DynamoDB Local', () => {
  let worker: RunningRuntime;
  beforeAll(async () => {
    worker = await startWorkerRuntime({
      DYNAMODB_ENDPOINT: inject('engines').dynamodbLocal,
      TABLE_NAME: `t-${randomUUID()}`,
      SHARDLINE_CREATE_TABLE: 'true',
      CURSOR_SECRET: 'worker-secret-worker-secret-worker-secret',
    });
  });
  afterAll(async () => worker?.close());

  it('creates its table on the first request and answers /healthz', async () => {
    const health = await get(worker, '/healthz');
    expect(health).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('writes and lists items, emoji included, in code point order', async () => {
    for (const [i, title] of ['🎸 Riff', '\uFFFD odd', 'abc'].entries()) {
      const written = await put(worker, '/collections/albums-hash/items', { pk: `w${i}`, sk: 's', title });
      expect(written.status).toBe(201);
    }
    const listing = await get(worker, '/collections/albums-hash/items?limit=2');
    expect(listing.status).toBe(200);
    expect(listing.body.items.map((item: { title: string }) => item.title)).toEqual(['abc', '\uFFFD odd']);
    const rest = await get(
      worker,
      `/collections/albums-hash/items?limit=2&cursor=${encodeURIComponent(listing.body.nextCursor)}`,
    );
    expect(rest.body).toEqual({ items: [{ pk: 'w0', sk: 's', title: '🎸 Riff' }], nextCursor: null });
  });

  it('serves the docs page, its assets (Workers static assets) and the OpenAPI document', async () => {
    const page = await worker.request('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('docs/assets/swagger-ui-bundle.js');
    const script = await worker.request('/docs/assets/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await script.text()).length).toBeGreaterThan(1_000_000);
    const document = await get(worker, '/openapi.json');
    expect(document.status).toBe(200);
    expect(Object.keys(document.body.paths)).toContain('/collections/{collection}/items');
  });
});
