import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopChild } from '../../devtools/child-process';
import { freePort } from '../../devtools/dynamodb-local';
import { call } from '../support/http';
import { startOnDynamoDbLocal, type NodeServer } from '../support/node-server';
import { RawConnection, type RawResponse } from '../support/raw-http';
import { startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

const HEALTH = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
const BODY_TIMEOUT_MS = 1000;
/**
 * Node checks its arrival bounds every quarter of BODY_TIMEOUT_MS (src/runtime/node/node-http.ts); slack for a busy
 * machine.
 */
const ANSWERED_WITHIN_MS = BODY_TIMEOUT_MS + BODY_TIMEOUT_MS / 4 + 1000;

/**
 * Sends `head`, then `dribble` one byte every 200 ms until an answer comes (or the dribble ends): the answer and
 * how long after the first byte it came.
 */
async function dribbled(port: number, head: string, dribble: string) {
  const connection = await RawConnection.open(port);
  const started = performance.now();
  let answered = false;
  try {
    await connection.send(head);
    const sending = (async () => {
      for (const byte of dribble) {
        if (answered) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
        await connection.send(byte).catch(() => undefined);
      }
    })();
    const answer = await connection.response(dribble.length * 200 + 5000);
    answered = true;
    const elapsedMs = performance.now() - started;
    await sending;
    return { answer, elapsedMs, closed: await connection.closes() };
  } finally {
    connection.close();
  }
}

function expectJsonError(response: RawResponse | undefined, status: number, code: string): void {
  expect(response?.status).toBe(status);
  expect(response?.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(response!.body)).toMatchObject({ error: { code, message: expect.any(String) } });
}

/** Sends `request` on a fresh connection, then a health check on it: both answers, and whether it closed. */
async function thenHealth(port: number, request: string | Buffer, ...more: (string | Buffer)[]) {
  const connection = await RawConnection.open(port);
  try {
    await connection.send(request);
    for (const part of more) await connection.send(part);
    const first = await connection.response();
    await connection.send(HEALTH);
    const second = await connection.response();
    return { first, second, closed: await connection.closes(second ? 200 : 3000) };
  } finally {
    connection.close();
  }
}

/** The Node server as `npm start` runs it (over DynamoDB Local), driven over raw sockets. */
describe('HTTP edges on the Node server: JSON errors, and the connection does what it says', () => {
  let server: NodeServer;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    server = await startOnDynamoDbLocal(
      {
        CURSOR_SECRET: 'http-edges-test-secret',
        // Headers and body must arrive whole within this (60 s by default; short here).
        BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
      },
      port,
    );
  });
  afterAll(async () => server && (await stopChild(server.child)));

  it('413 for a body over the limit by Content-Length: JSON, and the connection serves the next request', async () => {
    const body = 'x'.repeat(2 * 1024 * 1024);
    const head =
      'PUT /collections/albums/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${body.length}\r\n\r\n`;
    const { first, second, closed } = await thenHealth(port, head, body);
    expectJsonError(first, 413, 'payload_too_large');
    expect(first?.headers.connection).toBe('keep-alive');
    expect(second?.status).toBe(200);
    expect(closed).toBe(false);
  });

  it('408 request_timeout for a body that stops arriving: JSON with Connection: close, and it closes', async () => {
    const connection = await RawConnection.open(port);
    try {
      await connection.send(
        'PUT /collections/albums/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\n\r\n{"pk":',
      );
      const answer = await connection.response(20_000);
      expectJsonError(answer, 408, 'request_timeout');
      expect(answer?.headers.connection).toBe('close');
      expect(await connection.closes()).toBe(true);
    } finally {
      connection.close();
    }
  });

  it('408 for a body dribbled a byte every 200 ms: the whole body has BODY_TIMEOUT_MS, not each byte', async () => {
    const body = JSON.stringify({ pk: 'slow', sk: 'body', title: 'x'.repeat(40) });
    const head =
      'PUT /collections/albums/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${body.length}\r\n\r\n`;
    const { answer, elapsedMs, closed } = await dribbled(port, head, body);
    expectJsonError(answer, 408, 'request_timeout');
    expect(answer?.headers.connection).toBe('close');
    expect(elapsedMs).toBeLessThan(ANSWERED_WITHIN_MS);
    expect(closed).toBe(true);
  });

  it('408 for headers dribbled a byte every 200 ms, within BODY_TIMEOUT_MS', async () => {
    const headers = 'Content-Type: application/json\r\nX-Slow: ' + 'y'.repeat(40) + '\r\n\r\n';
    const { answer, elapsedMs, closed } = await dribbled(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', headers);
    expectJsonError(answer, 408, 'request_timeout');
    expect(elapsedMs).toBeLessThan(ANSWERED_WITHIN_MS);
    expect(closed).toBe(true);
  });

  it('413 for a declared body larger than the server drains (64 MiB): Connection: close, and it closes', async () => {
    const head =
      'PUT /collections/albums/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${100 * 1024 * 1024}\r\n\r\n{"pk":`;
    const { first, second, closed } = await thenHealth(port, head);
    expectJsonError(first, 413, 'payload_too_large');
    expect(first?.headers.connection).toBe('close');
    expect(second).toBeUndefined();
    expect(closed).toBe(true);
  });

  it('413 for a streamed (chunked) body over the limit: JSON with Connection: close, and it closes', async () => {
    const chunk = 'y'.repeat(256 * 1024);
    const head =
      'PUT /collections/albums/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n';
    const chunks = Array.from({ length: 6 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const { first, second, closed } = await thenHealth(port, head, ...chunks);
    expectJsonError(first, 413, 'payload_too_large');
    expect(first?.headers.connection).toBe('close');
    expect(second).toBeUndefined();
    expect(closed).toBe(true);
  });

  it('414 for an over-long URL and 431 for over-large headers: JSON, and the connection stays open', async () => {
    const longUrl = await thenHealth(port, `GET /collections?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectJsonError(longUrl.first, 414, 'uri_too_long');
    expect(longUrl.first?.headers.connection).toBe('keep-alive');
    expect(longUrl.second?.status).toBe(200);
    expect(longUrl.closed).toBe(false);

    const bigHeaders = await thenHealth(
      port,
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'h'.repeat(40_000)}\r\n\r\n`,
    );
    expectJsonError(bigHeaders.first, 431, 'headers_too_large');
    expect(bigHeaders.second?.status).toBe(200);
    expect(bigHeaders.closed).toBe(false);
  });

  it('431 past what the HTTP parser takes (64 KiB): still JSON, with Connection: close, and it closes', async () => {
    for (const request of [
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Huge: ${'h'.repeat(70_000)}\r\n\r\n`,
      `GET /collections?${'q'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]) {
      const { first, second, closed } = await thenHealth(port, request);
      expectJsonError(first, 431, 'headers_too_large');
      expect(first?.headers.connection).toBe('close');
      expect(second).toBeUndefined();
      expect(closed).toBe(true);
    }
    // Malformed HTTP gets a JSON 400 too.
    const { first } = await thenHealth(port, 'NOT HTTP AT ALL\r\n\r\n');
    expectJsonError(first, 400, 'invalid_request');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });
});

/** A request deadline shorter than the body timeout (REQUEST_TIMEOUT_MS 1.5 s against BODY_TIMEOUT_MS's 60 s). */
const SHORT_DEADLINE_MS = 1500;

describe('a body still arriving at the request deadline, on the Node server', () => {
  let server: NodeServer;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    server = await startOnDynamoDbLocal(
      { CURSOR_SECRET: 'http-edges-test-secret', REQUEST_TIMEOUT_MS: String(SHORT_DEADLINE_MS) },
      port,
    );
  });
  afterAll(async () => server && (await stopChild(server.child)));

  // 60 bytes a byte every 200 ms: 12 s to arrive, far past the deadline and inside BODY_TIMEOUT_MS.
  const body = JSON.stringify({ pk: 'slow', sk: 'body', title: 'x'.repeat(20) }).padEnd(60, ' ');
  const put = 'PUT /collections/albums/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';
  it.each([
    ['of a declared length', `${put}Content-Length: ${body.length}\r\n\r\n`, body],
    ['chunked', `${put}Transfer-Encoding: chunked\r\n\r\n`, `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`],
  ])(
    'a body %s is a 408 at the deadline with Connection: close, not after the dribbler finishes',
    async (_, head, sent) => {
      const { answer, elapsedMs, closed } = await dribbled(port, head, sent);
      expectJsonError(answer, 408, 'request_timeout');
      expect(answer?.headers.connection).toBe('close');
      expect(elapsedMs).toBeLessThan(SHORT_DEADLINE_MS + 3000);
      expect(closed).toBe(true);
    },
  );
});

/** Every route of the OpenAPI document, as (method, path with `albums` for its parameters). */
async function documentedRoutes(app: App): Promise<{ path: string; methods: string[] }[]> {
  const document = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, object> };
  return Object.entries(document.paths).map(([path, operations]) => ({
    path: path.replace(/\{[^}]+\}/g, 'albums'),
    methods: Object.keys(operations).map((method) => method.toUpperCase()),
  }));
}

describe('every route: 405 with Allow, unknown query parameters refused by name, / points to /docs', () => {
  let app: App;
  beforeAll(async () => {
    ({ app } = await startTestService('dynamodbLocal'));
  });

  it('answers each documented path asked with another method 405, Allow naming exactly its methods', async () => {
    const routes = await documentedRoutes(app);
    expect(routes.length).toBeGreaterThan(8);
    const byPath = new Map<string, Set<string>>();
    for (const { path, methods } of routes)
      for (const m of methods) byPath.set(path, (byPath.get(path) ?? new Set()).add(m));
    for (const [path, methods] of byPath) {
      if (methods.has('GET')) methods.add('HEAD');
      for (const method of ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'].filter((m) => !methods.has(m))) {
        const answer = await call(app, method, path);
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.headers.get('allow')?.split(', ').sort(), `${method} ${path}`).toEqual([...methods].sort());
        expect(answer.body.error.code).toBe('method_not_allowed');
      }
    }
  });

  it('refuses a query parameter a route does not take, naming it, on every documented route', async () => {
    for (const { path, methods } of await documentedRoutes(app)) {
      for (const method of methods) {
        const answer = await call(app, method, `${path}?limt=5`);
        expect(answer.status, `${method} ${path}`).toBe(400);
        expect(answer.body.error, `${method} ${path}`).toMatchObject({
          code: 'invalid_request',
          message: expect.stringMatching(/^unknown query parameter "limt": /),
          parameter: 'limt',
        });
      }
    }
    const listing = await call(app, 'GET', '/collections/albums/items?limt=5');
    expect(listing.body.error.message).toMatch(/takes limit, order, cursor, key, prefix, from, to, fields$/);
    // Declared parameters still pass, and a listing without any is untouched.
    expect((await call(app, 'GET', '/collections/albums/items?limit=5&order=desc')).status).toBe(200);
    expect((await call(app, 'GET', '/collections/albums/route?key=x')).status).toBe(200);
  });

  it('sends a browser at / to /docs, and gives anything else the links as JSON', async () => {
    const browser = await app.request('/', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/docs');
    const client = await call(app, 'GET', '/');
    expect(client.status).toBe(200);
    expect(client.body).toMatchObject({ docs: '/docs', openapi: '/openapi.json', collections: '/collections' });
    for (const link of Object.values(client.body).filter((v) => String(v).startsWith('/'))) {
      expect((await app.request(String(link))).status, String(link)).toBe(200);
    }
  });
});
