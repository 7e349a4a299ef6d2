import { beforeAll, describe, expect, it } from 'vitest';
import { call, get } from '../support/http';
import { startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What every answer says about itself: request ids, 405 with Allow, Server-Timing. */
describe('HTTP: request ids, wrong methods, Server-Timing', () => {
  let app: App;
  beforeAll(async () => {
    ({ app } = await startTestService('dynalite'));
  });

  it('echoes a well-formed x-request-id, on answers and in error bodies', async () => {
    const ok = await app.request('/collections', { headers: { 'x-request-id': 'support-ticket-42_a=b' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('support-ticket-42_a=b');
    const missing = await app.request('/collections/nope', { headers: { 'x-request-id': 'abc-123' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toBe('abc-123');
    expect(await missing.json()).toEqual({
      error: { code: 'collection_not_found', message: expect.any(String), requestId: 'abc-123' },
    });
  });

  it('makes a fresh id when none is sent, or the one sent is too long or holds other characters', async () => {
    const seen = new Set<string>();
    for (const sent of [undefined, 'x'.repeat(256), 'has space', 'semi;colon', 'ünicode']) {
      const response = await app.request(
        '/collections',
        sent === undefined ? {} : { headers: { 'x-request-id': sent } },
      );
      const id = response.headers.get('x-request-id');
      expect(id, String(sent)).toMatch(UUID);
      seen.add(id!);
    }
    expect(seen.size).toBe(5);
    const unknown = await get(app, '/nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.requestId).toBe(unknown.headers.get('x-request-id'));
    expect(unknown.body.error.requestId).toMatch(UUID);
  });

  it('answers a known path asked with another method 405, with Allow and a JSON error', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/collections/albums/items', 'GET, HEAD, PUT'],
      ['GET', '/collections/albums/items/batch', 'POST'],
      ['POST', '/collections/albums/item', 'GET, HEAD, PATCH, DELETE'],
      ['POST', '/healthz', 'GET, HEAD'],
    ] as const) {
      const answer = await call(app, method, path);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.get('allow')?.split(', ').sort(), `${method} ${path}`).toEqual(allow.split(', ').sort());
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.body.error).toMatchObject({
        code: 'method_not_allowed',
        message: `${method} is not allowed on ${path}`,
        requestId: answer.headers.get('x-request-id'),
      });
    }
    // An unknown path stays a 404, whatever the method; a known one asked rightly is unchanged.
    expect((await call(app, 'DELETE', '/nowhere')).status).toBe(404);
    expect((await call(app, 'GET', '/collections/nope/items')).body.error.code).toBe('collection_not_found');
    expect((await app.request('/healthz', { method: 'HEAD' })).status).toBe(200);
  });

  it('times a listing page in Server-Timing: dynamodb and total, in ms', async () => {
    const page = await app.request('/collections/albums/items?limit=5');
    expect(page.status).toBe(200);
    const metrics = new Map(
      (page.headers.get('server-timing') ?? '').split(',').map((entry) => {
        const [name, dur] = entry.trim().split(';dur=');
        return [name, Number(dur)] as const;
      }),
    );
    expect([...metrics.keys()]).toEqual(['dynamodb', 'total']);
    expect(metrics.get('dynamodb')).toBeGreaterThan(0); // the page did wait on real queries
    expect(metrics.get('total')).toBeGreaterThanOrEqual(metrics.get('dynamodb')!);
    // No timing on answers that are not a page, nor on other routes.
    expect((await app.request('/collections/albums/items?limit=0')).headers.get('server-timing')).toBeNull();
    expect((await app.request('/collections')).headers.get('server-timing')).toBeNull();
  });
});
