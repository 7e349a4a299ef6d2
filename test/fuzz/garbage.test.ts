import fc from 'fast-check';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_PATHS } from '../../src/http/app';
import { startTestService } from '../support/service';
import { rawText, text } from '../support/arbitraries';
import { queryValue, segment } from './requests';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

const PATHS = [
  '/',
  '/healthz',
  '/openapi.json',
  '/docs',
  '/collections',
  '/collections/{c}',
  '/collections/{c}/route',
  '/collections/{c}/items',
  '/collections/{c}/items/batch',
  '/collections/{c}/item',
  '/collections/{c}/items/{c}',
];
const QUERY_NAMES = [
  'limit',
  'order',
  'cursor',
  'key',
  'prefix',
  'from',
  'to',
  'pk',
  'sk',
  'title',
  '__proto__',
  'constructor',
  '',
];

const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 300 }),
  fc.constantFrom(
    '{',
    '{"items":',
    '{"items":[',
    '[]',
    'null',
    '"x"',
    '{"items":null}',
    '{"items":{}}',
    '\u0000',
    '{"pk":"a","sk":"b","title":"\\ud800"}',
    '['.repeat(5000) + ']'.repeat(5000),
    '{"a":'.repeat(3000) + '1' + '}'.repeat(3000),
  ),
  fc
    .array(
      fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record({ pk: rawText(8), sk: rawText(8), title: fc.oneof(rawText(20), fc.integer()) }),
      ),
      { maxLength: 30 },
    )
    .map((items) => JSON.stringify({ items })),
  fc
    .record({
      pk: fc.oneof(rawText(8), fc.integer()),
      sk: rawText(8),
      title: fc.oneof(rawText(20), fc.constant(null)),
      gsi1sk: fc.option(text(3)),
    })
    .map((item) => JSON.stringify(item)),
);
const request = fc.record({
  method: fc.constantFrom('GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
  path: fc.constantFrom(...PATHS),
  c: segment,
  query: fc.array(fc.tuple(fc.constantFrom(...QUERY_NAMES), queryValue), { maxLength: 5 }),
  contentType: fc.constantFrom(
    undefined,
    'application/json',
    'text/plain',
    'application/json; charset=latin1',
    'application/problem+json',
    'multipart/form-data',
  ),
  authorization: fc.constantFrom<string | undefined>(undefined, 'Bearer', 'Bearer x', 'Basic abc', 'Bearer \u00ff'),
  body,
});

type Garbage = typeof request extends fc.Arbitrary<infer T> ? T : never;

async function fire(app: App, r: Garbage): Promise<Response | undefined> {
  const path =
    r.path.replaceAll('{c}', r.c) + (r.query.length ? `?${r.query.map(([k, v]) => `${k}=${v}`).join('&')}` : '');
  const headers: Record<string, string> = {};
  if (r.contentType) headers['content-type'] = r.contentType;
  if (r.authorization) headers.authorization = r.authorization;
  let req: Request;
  try {
    const hasBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD';
    req = new Request(`http://localhost${path}`, { method: r.method, headers, ...(hasBody && { body: r.body }) });
  } catch {
    return undefined; // not a request any client could send
  }
  return app.fetch(req);
}

describe('garbage in, never a 5xx', () => {
  let app: App;
  let keyed: App;
  beforeAll(async () => {
    ({ app } = await startTestService('dynalite'));
    ({ app: keyed } = await startTestService('dynalite', {
      // Hundreds of refusals from one address: what is checked here is the answers, not the failure limit.
      env: { API_KEYS: 'fuzz-read-key:read,fuzz-write-key:write', AUTH_FAILURES_PER_SECOND: '1000000' },
    }));
  });

  it('answers every garbage request with a JSON 4xx (or a 2xx), never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const response = await fire(app, r);
        if (!response) return;
        const text = await response.text();
        expect(response.status, `${r.method} ${r.path} ${r.c} -> ${text.slice(0, 200)}`).toBeLessThan(500);
        if (response.status >= 400 && r.method !== 'HEAD') {
          const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
          expect(typeof parsed.error?.code).toBe('string');
          expect(typeof parsed.error?.message).toBe('string');
          expect(text).not.toMatch(/\bat .*\.(ts|js):\d+/); // no stack frames
        }
      }),
      { numRuns: 600 },
    );
    expect((await app.request('/healthz')).status).toBe(200);
  });

  it('answers garbage with keys configured: 401/403/4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(request, fc.constantFrom('fuzz-read-key', 'fuzz-write-key', undefined), async (r, key) => {
        const response = await fire(keyed, { ...r, ...(key && { authorization: `Bearer ${key}` }) });
        if (!response) return;
        expect(response.status).toBeLessThan(500);
        // Without a key nothing but the public paths (and CORS preflights) gets past the 401. The path is
        // the one the URL resolves to: `/collections/..` is `/`.
        const resolved = URL.canParse(`http://localhost${r.path.replaceAll('{c}', r.c)}`)
          ? new URL(`http://localhost${r.path.replaceAll('{c}', r.c)}`).pathname
          : r.path;
        if (!key && r.method !== 'OPTIONS' && !PUBLIC_PATHS.includes(resolved as (typeof PUBLIC_PATHS)[number])) {
          expect(response.status).toBe(401);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stays up when the Node server is sent malformed HTTP', async () => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const payloads = [
      'GARBAGE\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'PUT /collections/albums/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"pk":',
      'POST /collections/albums/items/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\nzz\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX: ' + 'y'.repeat(20_000) + '\r\n\r\n',
      '\u0000\u0001\u0002\u00ff'.repeat(1000),
    ];
    for (const payload of payloads) {
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(payload));
        socket.on('data', () => undefined);
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
        socket.setTimeout(2000, () => socket.destroy());
      });
    }
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    await new Promise((resolve) => server.close(resolve));
  });
});
