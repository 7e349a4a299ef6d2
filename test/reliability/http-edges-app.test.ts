import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { startDynamoProxy, type DynamoProxy } from '../support/dynamo-proxy';
import { call, get, put } from '../support/http';
import { startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('HTTP edges in the app: validators, weak ETags, projections, escapes', () => {
  let app: App;
  beforeAll(async () => {
    ({ app } = await startTestService('dynalite'));
    for (const pk of ['e1', 'e2']) {
      const written = await put(app, '/collections/albums/items', { pk, sk: 's', title: `Edge ${pk}`, year: 1 });
      expect(written.status).toBe(201);
    }
  });

  it('answers 304 to If-None-Match with the weak form of the current ETag (RFC 9110 weak comparison)', async () => {
    const first = await app.request('/collections/albums/item?pk=e1&sk=s');
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"/);
    for (const held of [`W/${etag}`, `"other", W/${etag}`, etag]) {
      const again = await app.request('/collections/albums/item?pk=e1&sk=s', { headers: { 'if-none-match': held } });
      expect(again.status, held).toBe(304);
    }
    const stale = await app.request('/collections/albums/item?pk=e1&sk=s', { headers: { 'if-none-match': 'W/"x"' } });
    expect(stale.status).toBe(200);
  });

  it('batch-get honours fields named in the body, and refuses them in both the body and the query', async () => {
    const keys = [
      { pk: 'e2', sk: 's' },
      { pk: 'e1', sk: 's' },
    ];
    const projected = await call(app, 'POST', '/collections/albums/items/batch-get', { keys, fields: ['title'] });
    expect(projected.status).toBe(200);
    expect(projected.body.items).toEqual([
      { pk: 'e2', sk: 's', title: 'Edge e2' },
      { pk: 'e1', sk: 's', title: 'Edge e1' },
    ]);
    const both = await call(app, 'POST', '/collections/albums/items/batch-get?fields=year', {
      keys,
      fields: ['title'],
    });
    expect(both.status).toBe(400);
  });

  it('refuses a malformed %-escape in the query with a 400 naming it, instead of taking it literally', async () => {
    for (const query of ['key=%zz', 'key=%E0%A4', 'prefix=ab%2', 'limit=1&key=a%']) {
      const answer = await get(app, `/collections/albums/items?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
      expect(answer.body.error.message).toContain('%-escape');
    }
    expect((await get(app, '/collections/albums/items?key=%C3%A9+x')).status).toBe(200);
  });
});

describe('a client that goes away mid-request', () => {
  let proxy: DynamoProxy;
  let app: App;
  let slow = false;
  beforeAll(async () => {
    proxy = await startDynamoProxy(inject('engines').dynalite, (c) =>
      slow && c.operation === 'Query' ? { kind: 'forward', delayMs: 3000 } : { kind: 'forward' },
    );
    const base = await startTestService('dynalite');
    ({ app } = await startTestService('dynalite', {
      env: {
        DYNAMODB_ENDPOINT: proxy.endpoint,
        TABLE_NAME: base.table,
        LOG_LEVEL: 'info',
        SHARDLINE_MAP_TTL_MS: '3600000',
      },
    }));
    expect((await get(app, '/collections/albums/items')).status).toBe(200);
    slow = true;
  });
  afterAll(async () => {
    await proxy?.idle();
    await proxy?.close();
  });

  it('is logged at info with status 499, not as an error 504', async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      const client = new AbortController();
      const queries = proxy.calls.length;
      const answer = Promise.resolve(app.request('/collections/albums/items', { signal: client.signal })).catch(
        () => undefined,
      );
      await until(() => proxy.calls.length > queries);
      client.abort();
      await answer;
      await until(() => lines.some((line) => line.includes('"route":"/collections/:collection/items"')));
      const entry = JSON.parse(
        lines.find((line) => line.includes('"route":"/collections/:collection/items"')) as string,
      );
      expect(entry).toMatchObject({ level: 'info', status: 499 });
    } finally {
      log.mockRestore();
    }
  });
});
