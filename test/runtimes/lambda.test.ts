import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { measureColdStarts } from '../../devtools/cold-start';
import { median } from '../../devtools/stats';
import type { EventKind } from './support/lambda-events';
import { buildLambdaOnce, loadLambdaRuntime, LOCAL_KEYS, type LambdaRuntime } from './support/runtimes';

const KINDS: EventKind[] = ['rest-v1', 'http-v2', 'function-url'];
const JSON_HEADERS = { 'content-type': 'application/json' };

describe('the built Lambda bundle over DynamoDB Local', () => {
  let bundle: string;
  let lambda: LambdaRuntime;
  let env: Record<string, string>;
  beforeAll(async () => {
    bundle = await buildLambdaOnce();
    env = {
      DYNAMODB_ENDPOINT: inject('engines').dynamodbLocal,
      AWS_REGION: 'us-east-1',
      TABLE_NAME: `t-${randomUUID()}`,
      CURSOR_SECRET: 'lambda-secret-lambda-secret-lambda-secret',
      SHARDLINE_CREATE_TABLE: 'true',
    };
    lambda = await loadLambdaRuntime(bundle, env);
  });
  afterAll(async () => lambda?.close());

  it('is one ESM file exporting handler, without the embedded engine', () => {
    const code = readFileSync(bundle, 'utf8');
    expect(code).toMatch(/createRequire/); // the banner some CommonJS dependencies need
    // The embedded engine's storage modules (dynalite's name appears in an error message, its code does not).
    expect(code).not.toMatch(/leveldown|memdown|levelup/);
    expect(typeof lambda.handler).toBe('function');
  });

  it('fails its init without a CURSOR_SECRET of at least 32 bytes, naming the setting', async () => {
    await expect(loadLambdaRuntime(bundle, { ...env, CURSOR_SECRET: 'short' })).rejects.toThrow(
      /CURSOR_SECRET must be set to at least 32 bytes \(it is 5 bytes\)/,
    );
  });

  describe.each(KINDS)('%s events', (kind) => {
    const pk = `Solar Fields ${kind}`;
    const item = {
      pk,
      sk: 'album#🎸',
      title: `🎸 Leaving Home \uFFFD ${kind}`,
      year: 2005,
      tags: ['ambient', null],
      extra: { n: 1.5 },
    };
    const itemPath = `/collections/albums/item?pk=${encodeURIComponent(pk)}&sk=${encodeURIComponent(item.sk)}`;

    it('writes an item sent as a base64 body, reads it by key and by listing filter, deletes it', async () => {
      const written = await lambda.invoke(kind, {
        method: 'PUT',
        path: '/collections/albums/items',
        headers: JSON_HEADERS,
        body: JSON.stringify(item),
        base64: true,
      });
      expect(written.status).toBe(201);
      const write = (await written.json()) as { shard: number };
      expect(write).toMatchObject({ shardKey: `albums#${write.shard}`, item });

      const read = await lambda.invoke(kind, { method: 'GET', path: itemPath });
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual({ item });

      const listing = await lambda.invoke(kind, {
        method: 'GET',
        path: `/collections/albums/items?key=${encodeURIComponent(item.title.toUpperCase())}&limit=5`,
      });
      expect(listing.status).toBe(200);
      expect(listing.headers.get('x-shard-queries')).toBe('1');
      expect(await listing.json()).toEqual({ items: [item], nextCursor: null });

      const deleted = await lambda.invoke(kind, { method: 'DELETE', path: itemPath });
      expect(deleted.status).toBe(204);
      expect((await lambda.invoke(kind, { method: 'GET', path: itemPath })).status).toBe(404);
    });

    it('answers bad input in a base64 body with the JSON error', async () => {
      const answer = await lambda.invoke(kind, {
        method: 'PUT',
        path: '/collections/albums/items',
        headers: JSON_HEADERS,
        body: '{"pk": "x", "sk": ',
        base64: true,
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
    });

    it('serves the docs page and its binary and text assets', async () => {
      const page = await lambda.invoke(kind, { method: 'GET', path: '/docs' });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('SwaggerUIBundle');
      const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
      const icon = await lambda.invoke(kind, { method: 'GET', path: '/docs/assets/favicon-32x32.png' });
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await icon.arrayBuffer()).equals(readFileSync(join(swaggerDir, 'favicon-32x32.png')))).toBe(
        true,
      );
      const css = await lambda.invoke(kind, { method: 'GET', path: '/docs/assets/swagger-ui.css' });
      expect(await css.text()).toBe(readFileSync(join(swaggerDir, 'swagger-ui.css'), 'utf8'));
    });
  });

  // Serving from a cold process is the behaviour checked; its times are printed for the record,
  // not asserted: on a shared machine they measure the neighbours (scripts/lambda-cold-start.ts measures).
  it('serves a first 100-item listing over 21 shards from a cold process, three times over', async () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ pk: `cold-${i}`, sk: 's', title: `cold ${i} 😀` }));
    const batch = await lambda.request('/collections/albums-hash/items/batch', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ items }),
    });
    expect(await batch.json()).toEqual({ written: 100, failed: [] });
    const starts = await measureColdStarts(
      bundle,
      { ...LOCAL_KEYS, ...env, SHARDLINE_CREATE_TABLE: 'false' },
      '/collections/albums-hash/items?limit=100',
      3,
    );
    for (const start of starts) expect(start.status).toBe(200);
    const importMs = median(starts.map((start) => start.importMs));
    const firstMs = median(starts.map((start) => start.firstRequestMs));
    console.log(
      `Lambda cold start (median of 3): import ${importMs.toFixed(0)} ms + first request ${firstMs.toFixed(0)} ms`,
    );
  });
});
