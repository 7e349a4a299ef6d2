import { describe, expect, it } from 'vitest';
import { docsService } from '../../support/docs-service';

const KEY = 'query-checks-key';
const LISTING = '/collections/{collection}/items';
const LISTING_TAKES = ['limit', 'order', 'cursor', 'key', 'prefix', 'from', 'to', 'fields'];

/**
 * The query checks without DynamoDB (every request here is refused before a table is asked): each route's
 * own check of its parameters (src/http/api-route.ts), run where Hono's router sends the request, and the
 * app-wide refusal of malformed %-escapes. test/reliability/http-edges.test.ts tries every documented route.
 */
describe('query checks', () => {
  const { app } = docsService({ API_KEYS: `${KEY}:write` });
  const send = async (path: string, method = 'GET', headers: Record<string, string> = {}) => {
    const response = await app.request(path, { method, headers: { authorization: `Bearer ${KEY}`, ...headers } });
    const text = await response.text();
    return { status: response.status, error: text ? JSON.parse(text).error : undefined };
  };

  it('refuses a parameter the route does not declare, naming it and what the route takes', async () => {
    expect(await send('/collections/albums/items?limit=5&limt=5')).toEqual({
      status: 400,
      error: {
        code: 'invalid_request',
        message: `unknown query parameter "limt": GET ${LISTING} takes ${LISTING_TAKES.join(', ')}`,
        parameter: 'limt',
        allowed: LISTING_TAKES,
        requestId: expect.any(String),
      },
    });
    const docs = await send('/docs?x=1');
    expect(docs.error).toMatchObject({ message: 'unknown query parameter "x": GET /docs takes no query parameters' });
    expect(docs.error.allowed).toEqual([]);
  });

  it('checks HEAD as the GET route it is served by, and a path however it is spelt', async () => {
    expect((await send('/collections/albums/items?limt=5', 'HEAD')).status).toBe(400);
    // Hono routes /%68ealthz to /healthz: the check goes with the route.
    expect((await send('/%68ealthz?limt=1')).error.message).toMatch(/^unknown query parameter "limt": GET \/healthz /);
  });

  it("runs before the route's own middleware, and lets a declared parameter through to them", async () => {
    const text = { 'content-type': 'text/plain' };
    const unknown = await send('/collections/albums/items/batch-get?limt=1', 'POST', text);
    expect(unknown.error.parameter).toBe('limt');
    const declared = await send('/collections/albums/items/batch-get?fields=title', 'POST', text);
    expect([declared.status, declared.error.code]).toEqual([400, 'invalid_json']);
  });

  it('refuses a malformed %-escape on every path, routed or not', async () => {
    for (const path of ['/collections/albums/items?key=%zz', '/no/such/route?x=%E0%A4', '/docs?%zz']) {
      const answer = await send(path);
      expect(answer.status, path).toBe(400);
      expect(answer.error.message, path).toContain('%-escape');
    }
  });

  it('leaves CORS preflights alone, and answers a caller without a key 401 before any query check', async () => {
    const preflight = await app.request('/collections/albums/items?limt=5&x=%zz', { method: 'OPTIONS' });
    expect(preflight.status).toBe(405);
    for (const path of ['/collections/albums/items?limt=5', '/no/such/route?x=%zz']) {
      expect((await app.request(path)).status, path).toBe(401);
    }
  });
});
