import { describe, expect, it } from 'vitest';
import { DOCS_ASSET_FILES, DOCS_ASSET_PATH } from '../../../src/http/docs/assets';
import { docsService } from '../../support/docs-service';

type Operation = { security?: unknown[]; responses: Record<string, unknown> };

describe('the docs with API_KEYS set', () => {
  const { app } = docsService({ API_KEYS: 'reader-key:read' });
  const assets = DOCS_ASSET_FILES.map((file) => `${DOCS_ASSET_PATH}/${file}`);

  it('serves /docs, every file it loads, /openapi.json and / without a key, as docs/operations.md says', async () => {
    for (const path of ['/docs', '/openapi.json', '/', ...assets]) {
      expect((await app.request(path)).status, path).toBe(200);
      expect((await app.request(path, { method: 'HEAD' })).status, `HEAD ${path}`).toBe(200);
    }
  });

  it('still guards the API itself, and every other path under /docs', async () => {
    expect((await app.request('/collections/no-such-collection')).status).toBe(401);
    // With the key the request gets through to the route (which knows no such collection).
    const keyed = await app.request('/collections/no-such-collection', {
      headers: { authorization: 'Bearer reader-key' },
    });
    expect(keyed.status).toBe(404);
    for (const path of ['/docs/', '/docs/x', `${DOCS_ASSET_PATH}/nope.js`, `${DOCS_ASSET_PATH}/`]) {
      expect((await app.request(path)).status, path).toBe(401);
    }
  });

  it('says so in the OpenAPI document: the docs operations need no key, the API does', async () => {
    const { paths } = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, { get: Operation }>;
    };
    for (const path of ['/docs', `${DOCS_ASSET_PATH}/{file}`, '/openapi.json', '/', '/healthz']) {
      expect(paths[path]?.get.security, path).toEqual([]);
      expect(paths[path]?.get.responses, path).not.toHaveProperty('401');
    }
    expect(paths['/collections']?.get.security).toBeUndefined();
    expect(paths['/collections']?.get.responses).toHaveProperty('401');
  });
});
