/* eslint-disable @typescript-eslint/no-explicit-any -- test assertions read arbitrary JSON */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/http/app';
import { configMaps } from '../support/config-maps';
import { createShardline } from '../../src/service/shardline';
import type { Store } from '../../src/store/store';
import { parseApiKeys, parseOrigins } from '../../src/runtime/settings';
import { startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

const READ_KEY = 'rk-0123456789abcdef';
const WRITE_KEY = 'wk-fedcba9876543210';
const ITEM = { pk: 'Solar Fields', sk: 'album#Leaving Home', title: 'Leaving Home' };

function send(
  app: App,
  method: string,
  path: string,
  options: { key?: string; auth?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.auth !== undefined) headers.authorization = options.auth;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return app.request(path, {
    method,
    headers,
    ...(options.body !== undefined && {
      body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    }),
  });
}

describe('API keys and scopes', () => {
  let app: App;
  beforeAll(async () => {
    // Many refusals in a burst from one (unknown) address: the failure limit is tested on its own below.
    ({ app } = await startTestService('dynalite', {
      env: { API_KEYS: `${READ_KEY}:read, ${WRITE_KEY}:write`, AUTH_FAILURES_PER_SECOND: '1000' },
    }));
  });

  it('lets /healthz, /openapi.json and /docs through without a key', async () => {
    for (const path of ['/healthz', '/openapi.json', '/docs']) {
      const response = await send(app, 'GET', path);
      expect(response.status, path).toBe(200);
    }
    // Only those exact paths: a look-alike is still a 401.
    expect((await send(app, 'GET', '/healthz/../collections')).status).toBe(401);
    expect((await send(app, 'GET', '/docs/x')).status).toBe(401);
  });

  it.each([
    ['no header', {}],
    ['an unknown key', { key: 'rk-0123456789abcdeX' }],
    ['a prefix of a valid key', { key: READ_KEY.slice(0, -1) }],
    ['a valid key with a suffix', { key: `${READ_KEY}x` }],
    ['Basic auth', { auth: `Basic ${Buffer.from(`u:${READ_KEY}`).toString('base64')}` }],
    ['an empty bearer', { auth: 'Bearer ' }],
    ['the scope glued on', { key: `${READ_KEY}:read` }],
  ])('answers 401 with WWW-Authenticate for %s', async (_, options) => {
    for (const [method, path, body] of [
      ['GET', '/collections', undefined],
      ['GET', '/collections/albums/items', undefined],
      ['PUT', '/collections/albums/items', ITEM],
      ['GET', '/no/such/route', undefined],
    ] as const) {
      const response = await send(app, method, path, { ...options, ...(body && { body }) });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="shardline"/);
      const text = await response.text();
      expect(JSON.parse(text).error.code).toBe('unauthorized');
      expect(text).not.toContain(READ_KEY.slice(3));
    }
  });

  it('lets a read key read and answers 403 when it writes', async () => {
    expect((await send(app, 'GET', '/collections', { key: READ_KEY })).status).toBe(200);
    expect((await send(app, 'GET', '/collections/albums/items', { key: READ_KEY })).status).toBe(200);
    // Scheme names are case-insensitive.
    expect((await send(app, 'GET', '/collections', { auth: `bearer ${READ_KEY}` })).status).toBe(200);
    for (const [method, path, body] of [
      ['PUT', '/collections/albums/items', ITEM],
      ['POST', '/collections/albums/items/batch', { items: [ITEM] }],
      ['DELETE', '/collections/albums/item?pk=a&sk=b', undefined],
    ] as const) {
      const response = await send(app, method, path, { key: READ_KEY, ...(body && { body }) });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.headers.get('www-authenticate')).toContain('insufficient_scope');
      expect(((await response.json()) as any).error.code).toBe('forbidden');
    }
    // Nothing was written by the refused calls.
    const got = await send(
      app,
      'GET',
      `/collections/albums/item?pk=${encodeURIComponent(ITEM.pk)}&sk=${encodeURIComponent(ITEM.sk)}`,
      { key: READ_KEY },
    );
    expect(got.status).toBe(404);
  });

  it('lets a write key write, read and delete', async () => {
    expect((await send(app, 'PUT', '/collections/albums/items', { key: WRITE_KEY, body: ITEM })).status).toBe(201);
    const batch = await send(app, 'POST', '/collections/albums/items/batch', {
      key: WRITE_KEY,
      body: { items: [{ ...ITEM, sk: 'b' }] },
    });
    expect(await batch.json()).toEqual({ written: 1, failed: [] });
    const listing = await send(app, 'GET', '/collections/albums/items', { key: WRITE_KEY });
    expect(((await listing.json()) as any).items).toHaveLength(2);
    const deleted = await send(app, 'DELETE', `/collections/albums/item?pk=${encodeURIComponent(ITEM.pk)}&sk=b`, {
      key: WRITE_KEY,
    });
    expect(deleted.status).toBe(204);
  });

  it('keeps key material out of settings errors', () => {
    expect(() => parseApiKeys('topsecretvalue:admin')).toThrow(/entry 1/);
    expect(() => parseApiKeys('topsecretvalue:admin')).not.toThrow(/topsecret/);
    expect(() => parseApiKeys('a:read,topsecretvalue')).not.toThrow(/topsecret/);
    expect(() => parseApiKeys('dup:read,dup:write')).toThrow(/repeats/);
    expect(parseApiKeys(' a:b:READ , c:write ')).toEqual([
      { key: 'a:b', scope: 'read' },
      { key: 'c', scope: 'write' },
    ]);
    expect(parseApiKeys('')).toEqual([]);
  });
});

describe('headers, CORS, limits', () => {
  afterEach(() => vi.restoreAllMocks());

  it('sends secure headers and no CORS headers unless configured', async () => {
    const { app } = await startTestService('dynalite');
    const response = await send(app, 'GET', '/collections', { headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await send(app, 'OPTIONS', '/collections', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers CORS for configured origins only, preflights without a key', async () => {
    const { app } = await startTestService('dynalite', {
      env: { CORS_ORIGINS: 'https://app.example.com', API_KEYS: `${WRITE_KEY}:write` },
    });
    const preflight = await send(app, 'OPTIONS', '/collections/albums/items', {
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const allowed = await send(app, 'GET', '/collections', {
      key: WRITE_KEY,
      headers: { origin: 'https://app.example.com' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const other = await send(app, 'GET', '/collections', {
      key: WRITE_KEY,
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(() => parseOrigins('https://a.example/path')).toThrow(/without a path/);
    expect(() => parseOrigins('not an origin')).toThrow(/not an origin/);
  });

  it('refuses oversized bodies with 413 per route, streamed or not, before writing', async () => {
    const { app } = await startTestService('dynalite', {
      env: { MAX_ITEM_BODY_BYTES: '4096', MAX_BATCH_BODY_BYTES: '65536' },
    });
    const big = { ...ITEM, blob: 'x'.repeat(5000) };
    const single = await send(app, 'PUT', '/collections/albums/items', { body: big });
    expect(single.status).toBe(413);
    expect(((await single.json()) as any).error.code).toBe('payload_too_large');
    // The same item fits the batch limit.
    const batch = await send(app, 'POST', '/collections/albums/items/batch', { body: { items: [big] } });
    expect(await batch.json()).toEqual({ written: 1, failed: [] });
    const tooBig = await send(app, 'POST', '/collections/albums/items/batch', {
      body: { items: Array.from({ length: 14 }, (_, i) => ({ ...big, sk: `s${i}` })) },
    });
    expect(tooBig.status).toBe(413);
    // Chunked: no Content-Length, the limit applies while reading.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify(big)));
        controller.close();
      },
    });
    const streamed = await app.request('/collections/albums/items', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const listing = (await (await send(app, 'GET', '/collections/albums/items')).json()) as any;
    expect(listing.items).toHaveLength(1);
  });

  it('limits a caller to RATE_LIMIT_PER_SECOND with 429 and Retry-After, per key', async () => {
    const { app } = await startTestService('dynalite', {
      env: { RATE_LIMIT_PER_SECOND: '3', API_KEYS: `${READ_KEY}:read,${WRITE_KEY}:write` },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(app, 'GET', '/collections', { key: READ_KEY })).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    const limited = await send(app, 'GET', '/collections', { key: READ_KEY });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await limited.json()) as any).error.code).toBe('rate_limited');
    // Another key has its own bucket; health checks are never limited.
    expect((await send(app, 'GET', '/collections', { key: WRITE_KEY })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await send(app, 'GET', '/healthz')).status).toBe(200);
  });

  it('limits failed authentications per credential and address: a valid key from there still passes', async () => {
    const { app } = await startTestService('dynalite', {
      env: { AUTH_FAILURES_PER_SECOND: '3', API_KEYS: `${READ_KEY}:read` },
    });
    // As the Node server hands requests to the app: the peer's address on the socket (a proxy's, for all behind it).
    const from = (address: string, key: string) =>
      app.request(
        '/collections',
        { headers: { authorization: `Bearer ${key}` } },
        { incoming: { socket: { remoteAddress: address } } },
      );
    const statuses = async (address: string, keys: string[]) => {
      const answers: Response[] = [];
      for (const key of keys) answers.push(await from(address, key));
      return answers;
    };
    const limitedIn = (answers: Response[]) => answers.filter((answer) => answer.status === 429);
    expect((await from('10.0.0.1', READ_KEY)).status).toBe(200); // the first answer's one-time costs, paid here
    // One client behind a proxy repeats a stale key 30 times: 429s for that key once its 3 are spent...
    const stale = await statuses('10.0.0.66', Array(30).fill('stale-key'));
    expect(stale.slice(0, 3).map((answer) => answer.status)).toEqual([401, 401, 401]);
    expect(limitedIn(stale).length).toBeGreaterThanOrEqual(20);
    const limited = limitedIn(stale).at(-1)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await limited.json()) as any).error.code).toBe('rate_limited');
    // ...and nobody else behind it pays: another client's mistyped key is its own 401, a valid key a 200.
    expect((await from('10.0.0.66', 'typo-key')).status).toBe(401);
    expect((await from('10.0.0.66', READ_KEY)).status).toBe(200);

    // A guesser with a new key every time, 30 of them: limited by its address after 3, whatever the keys.
    const guesses = await statuses(
      '10.0.0.99',
      Array.from({ length: 30 }, (_, i) => `guess-${i}`),
    );
    expect(guesses.slice(0, 3).map((answer) => answer.status)).toEqual([401, 401, 401]);
    expect(limitedIn(guesses).length).toBeGreaterThanOrEqual(20);
    // While it guesses, a key never used from that address gets a guess's 429: the answer must not say it was right...
    const unseen = await from('10.0.0.99', READ_KEY);
    expect(unseen.status).toBe(429);
    expect(((await unseen.json()) as any).error.code).toBe('rate_limited');
    // ...but a key that has passed from an address keeps passing while someone there guesses.
    const more = await statuses(
      '10.0.0.66',
      Array.from({ length: 30 }, (_, i) => `more-${i}`),
    );
    expect(limitedIn(more).length).toBeGreaterThanOrEqual(20);
    expect((await from('10.0.0.66', READ_KEY)).status).toBe(200);
  });

  it('answers an unexpected error with a bare 500 and logs one line: no stack, no key', async () => {
    const { collections } = await startTestService('dynalite');
    const failing = async (): Promise<never> => {
      throw new TypeError('cannot read properties of undefined\n    at secretFrame (/src/x.ts:1:1)');
    };
    const store: Store = {
      queryShard: failing,
      putItem: failing,
      updateItem: failing,
      batchGet: failing,
      getItem: failing,
      deleteItem: failing,
      queryKeyRange: failing,
      ping: failing,
    };
    const app = createApp({
      shardline: createShardline({ collections, store, maps: configMaps(), cursorSecret: 's' }),
      requestTimeoutMs: 1000,
      security: { apiKeys: [{ key: WRITE_KEY, scope: 'write' }] },
    });
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
    const response = await send(app, 'GET', '/collections/albums/items?limit=5', { key: WRITE_KEY });
    expect(response.status).toBe(500);
    // Nothing but the code, a bare message and the request id to quote to support.
    expect(await response.json()).toEqual({
      error: { code: 'internal', message: 'internal error', requestId: response.headers.get('x-request-id') },
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('TypeError: cannot read properties of undefined');
    expect(logged[0]).toContain(`request ${response.headers.get('x-request-id')}`);
    expect(logged[0]).not.toContain(WRITE_KEY);
    expect(logged[0]).not.toMatch(/\bat /);
  });
});
