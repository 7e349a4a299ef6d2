import { beforeAll, describe, expect, it } from 'vitest';
import { get } from '../support/http';
import { startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What answers say about themselves: request ids, Server-Timing. */
describe('HTTP: request ids, Server-Timing', () => {
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
    expect(metrics.get('dynamodb')).toBeGreaterThanOrEqual(0);
    expect(metrics.get('total')).toBeGreaterThanOrEqual(metrics.get('dynamodb')!);
    // No timing on answers that are not a page, nor on other routes.
    expect((await app.request('/collections/albums/items?limit=0')).headers.get('server-timing')).toBeNull();
    expect((await app.request('/collections')).headers.get('server-timing')).toBeNull();
  });
});
