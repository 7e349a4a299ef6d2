import { describe, expect, it } from 'vitest';
import { DOCS_ASSET_FILES, DOCS_ASSET_PATH } from '../../src/http/docs/assets';
import { docsService } from './support';

describe('the docs with API_KEYS set', () => {
  const { app } = docsService({ API_KEYS: 'reader-key:read' });

  it('serves /docs, every file it loads and /openapi.json without a key, as docs/operations.md says', async () => {
    for (const path of ['/docs', '/openapi.json', ...DOCS_ASSET_FILES.map((file) => `${DOCS_ASSET_PATH}/${file}`)]) {
      expect((await app.request(path)).status, path).toBe(200);
    }
  });

  it('still guards the API itself', async () => {
    expect((await app.request('/collections/no-such-collection')).status).toBe(401);
    // With the key the request gets through to the route (which knows no such collection).
    const keyed = await app.request('/collections/no-such-collection', {
      headers: { authorization: 'Bearer reader-key' },
    });
    expect(keyed.status).toBe(404);
  });
});
