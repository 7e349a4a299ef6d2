import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { docsService } from '../../support/docs-service';

type Operation = { operationId?: string; summary?: string; responses?: Record<string, unknown> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

describe('/openapi.json', () => {
  const { app } = docsService();
  const fetchDocument = async () => (await (await app.request('/openapi.json')).json()) as Document;

  it('is a valid OpenAPI 3 document', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toMatch(/^3\./);
    // validate() dereferences its argument in place: give it a copy.
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('describes every route the app serves, and only those', async () => {
    const document = await fetchDocument();
    const served = new Set(
      app.routes
        .filter((route) => route.method !== 'ALL') // middleware
        .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const described = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method} ${path}`),
      ),
    );
    expect([...described].sort()).toEqual([...served].sort());
    for (const route of [
      'get /healthz',
      'get /openapi.json',
      'get /docs',
      'get /collections/{collection}/items',
      'put /collections/{collection}/items',
    ]) {
      expect(described).toContain(route);
    }
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        expect(Object.keys(operation.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });

  it('names every operation with an operationId of its own (what clients generated from it call)', async () => {
    const document = await fetchDocument();
    const ids: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
        ids.push(operation.operationId!);
      }
    }
    expect(ids).toContain('getDocsAsset');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares each error answer once, under components.responses, and every operation refers to it', async () => {
    const document = (await fetchDocument()) as Document & { components: { responses: Record<string, unknown> } };
    const shared = document.components.responses;
    const referred = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (Number(status) < 400) continue;
          const ref = (response as { $ref?: string }).$ref ?? '';
          expect(ref, `${method} ${path} ${status}`).toMatch(/^#\/components\/responses\/\w+$/);
          referred.add(ref.split('/').pop()!);
        }
      }
    }
    // Every shared answer is given somewhere, and each has its own description.
    expect([...referred].sort()).toEqual(Object.keys(shared).sort());
    const descriptions = Object.values(shared).map((answer) => (answer as { description: string }).description);
    expect(new Set(descriptions).size).toBe(descriptions.length);
    expect(Object.keys(shared)).toEqual(expect.arrayContaining(['NotFound', 'Unauthorized', 'RateLimited']));
  });

  it('gives /docs a page whose every URL stays on the service', async () => {
    const page = await app.request('/docs');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    const urls = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const url of urls) expect(url).not.toMatch(/^(?:[a-z]+:)?\/\//i);
    for (const url of urls.filter((value) => value.startsWith('docs/assets/'))) {
      const asset = await app.request(`/${url}`);
      expect(asset.status, url).toBe(200);
    }
  });
});
