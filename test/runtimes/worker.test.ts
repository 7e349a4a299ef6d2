import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startDynamoProxy, type DynamoProxy } from '../support/dynamo-proxy';
import { get, put } from '../support/http';
import { startWorkerRuntime, type RunningRuntime } from './support/runtimes';

/**
 * The shortest map TTL the settings allow: this Worker (wrangler.toml's entry) reads the machine's
 * clock, and a TTL of 10 ms, polled for, costs less than a build with a moved clock (moved-clock-worker.ts).
 */
const MAP_TTL_MS = 10;

describe('the Worker in workerd (wrangler dev) over DynamoDB Local', () => {
  let worker: RunningRuntime;
  let proxy: DynamoProxy;
  /** Set by a test: how long the proxy holds the next shard-map pointer read (a BatchGetItem). */
  let holdNextPointerRead = 0;
  beforeAll(async () => {
    proxy = await startDynamoProxy(inject('engines').dynamodbLocal, (call) => {
      const delayMs = call.operation === 'BatchGetItem' ? holdNextPointerRead : 0;
      if (delayMs) holdNextPointerRead = 0;
      return { kind: 'forward', delayMs };
    });
    worker = await startWorkerRuntime({
      DYNAMODB_ENDPOINT: proxy.endpoint,
      TABLE_NAME: `t-${randomUUID()}`,
      SHARDLINE_CREATE_TABLE: 'true',
      CURSOR_SECRET: 'worker-secret-worker-secret-worker-secret',
      SHARDLINE_MAP_TTL_MS: String(MAP_TTL_MS),
    });
  });
  afterAll(async () => {
    await worker?.close();
    await proxy?.close();
  });

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

  it('reads the shard map for each request itself: one abandoned mid-refresh never holds another', async () => {
    expect((await get(worker, '/collections/albums/items?limit=1')).status).toBe(200);
    // Its pointer read was sent before it answered: once the TTL has passed since, the next request refreshes.
    const answeredAt = Date.now();
    await vi.waitFor(() => expect(Date.now() - answeredAt).toBeGreaterThan(MAP_TTL_MS), { interval: 2 });
    holdNextPointerRead = 1_500;
    const pointerReadsSoFar = () => proxy.calls.filter((call) => call.operation === 'BatchGetItem').length;
    const readsBefore = pointerReadsSoFar();
    // The first request starts the refresh, then its client goes away: workerd cancels its I/O.
    const abandoned = new AbortController();
    const first = Promise.resolve(worker.request('/collections/albums/items?limit=1', { signal: abandoned.signal }));
    // Gone once its pointer read is in the proxy's hands (held there), not after a guess at how long that takes.
    await vi.waitFor(() => expect(pointerReadsSoFar()).toBe(readsBefore + 1), { timeout: 10_000, interval: 10 });
    abandoned.abort();
    await first.catch(() => null);
    // A request during that refresh must read the pointer itself, not wait on the abandoned read.
    const second = await get(worker, '/collections/albums/items?limit=1');
    expect(second.status).toBe(200);
    expect(pointerReadsSoFar() - readsBefore).toBe(2);
  });
});
