import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORS_EXPOSED_HEADERS, CORS_METHODS, CORS_REQUEST_HEADERS } from '../../src/http/middleware/cors';
import { docsService } from '../support/docs-service';
import { startNodeServer, type RunningRuntime } from '../runtimes/support/runtimes';
import { startTestService } from '../support/service';
import { launchChromium } from '../support/chromium';

const WRITE_KEY = 'cors-browser-write-key';

type Parameter = { in: string; name: string };
type Operation = { parameters?: Parameter[]; responses?: Record<string, { headers?: Record<string, unknown> }> };
type ApiDocument = { paths: Record<string, Record<string, Operation>> };

const lower = (names: readonly string[]) => new Set(names.map((name) => name.toLowerCase()));

describe('CORS covers the API description', () => {
  it('allows every method, request header and response header /openapi.json declares', async () => {
    const document = (await (await docsService().app.request('/openapi.json')).json()) as ApiDocument;
    const operations = Object.values(document.paths).flatMap((methods) => Object.entries(methods));
    const methods = new Set(operations.map(([method]) => method.toUpperCase()));
    const requestHeaders = new Set(
      operations.flatMap(([, operation]) =>
        (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()),
      ),
    );
    const responseHeaders = new Set(
      operations.flatMap(([, operation]) =>
        Object.values(operation.responses ?? {}).flatMap((response) =>
          Object.keys(response.headers ?? {}).map((name) => name.toLowerCase()),
        ),
      ),
    );
    expect(methods).toContain('PATCH');
    expect(requestHeaders).toContain('if-match');
    expect([...methods].filter((method) => !CORS_METHODS.includes(method as never))).toEqual([]);
    expect([...requestHeaders].filter((name) => !lower(CORS_REQUEST_HEADERS).has(name))).toEqual([]);
    expect([...responseHeaders].filter((name) => !lower(CORS_EXPOSED_HEADERS).has(name))).toEqual([]);
  });
});

/**
 * A page on one origin (its own little server) calling the service, served by Node on another origin
 * that allows it: the browser's preflight and response checks are the real ones.
 */
describe('a cross-origin page in headless Chromium', () => {
  let browser: Browser;
  let service: RunningRuntime;
  let page: Server;
  let serviceOrigin: string;
  let pageOrigin: string;

  beforeAll(async () => {
    page = createServer((_, response) => response.end('<!doctype html><title>app</title>'));
    await new Promise<void>((listening) => page.listen(0, '127.0.0.1', listening));
    // localhost, not 127.0.0.1: another origin than the service's, on the same loopback.
    pageOrigin = `http://localhost:${(page.address() as AddressInfo).port}`;
    const { app } = await startTestService('dynamodbLocal', {
      env: { CORS_ORIGINS: pageOrigin, API_KEYS: `${WRITE_KEY}:write` },
    });
    service = await startNodeServer(app);
    serviceOrigin = new URL((await service.request('/healthz')).url).origin;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    if (page) await new Promise((closed) => page.close(closed));
  });

  it('PUTs an item, reads its ETag, and PATCHes it with If-Match', async () => {
    const tab = await browser.newPage();
    await tab.goto(`${pageOrigin}/`);
    const outcome = await tab.evaluate(
      async ({ base, key }) => {
        const item = `${base}/collections/albums/item?pk=Cors&sk=album%231`;
        const auth = { authorization: `Bearer ${key}` };
        const put = await fetch(`${base}/collections/albums/items`, {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/json', 'if-none-match': '*' },
          body: JSON.stringify({ pk: 'Cors', sk: 'album#1', title: 'Before' }),
        });
        const etag = put.headers.get('etag');
        const patch = await fetch(item, {
          method: 'PATCH',
          headers: { ...auth, 'content-type': 'application/merge-patch+json', 'if-match': etag ?? '' },
          body: JSON.stringify({ title: 'After' }),
        });
        const stale = await fetch(item, {
          method: 'PATCH',
          headers: { ...auth, 'content-type': 'application/merge-patch+json', 'if-match': etag ?? '' },
          body: JSON.stringify({ title: 'Again' }),
        });
        const read = await fetch(item, { headers: auth });
        return {
          put: put.status,
          etag,
          patch: patch.status,
          patchedEtag: patch.headers.get('etag'),
          stale: stale.status,
          title: ((await read.json()) as { item?: { title?: string } }).item?.title,
        };
      },
      { base: serviceOrigin, key: WRITE_KEY },
    );
    expect(outcome).toMatchObject({ put: 201, patch: 200, stale: 412, title: 'After' });
    expect(outcome.etag).toMatch(/^"/);
    expect(outcome.patchedEtag).toMatch(/^"/);
    expect(outcome.patchedEtag).not.toBe(outcome.etag);
  });
});
