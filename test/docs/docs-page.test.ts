import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildLambdaOnce,
  loadLambdaRuntime,
  ROOT,
  startNodeServer,
  startWorkerRuntime,
  type LambdaRuntime,
  type RunningRuntime,
} from '../runtimes/support/runtimes';
import { docsService } from '../support/docs-service';
import { launchChromium } from '../support/chromium';

const SCREENSHOTS = resolve(ROOT, '.cache/screenshots');
/** Nothing listens here: neither the docs nor this test need DynamoDB. */
const NO_ENGINE = 'http://127.0.0.1:9';

type ApiDocument = { info: { title: string }; paths: Record<string, Record<string, unknown>> };

/**
 * /docs in headless Chromium, served by each runtime: the Node server and the
 * Worker (wrangler dev, static assets) over HTTP, the Lambda bundle by handing each
 * browser request to its handler as an HTTP API event. Every request leaving the
 * service is blocked and recorded: the page must render from the service alone.
 */
describe('the /docs page in headless Chromium, offline', () => {
  let browser: Browser;
  const runtimes: Record<string, { origin: string; runtime: RunningRuntime; lambda?: LambdaRuntime }> = {};

  beforeAll(async () => {
    const [node, worker, lambda] = await Promise.all([
      startNodeServer(docsService().app),
      startWorkerRuntime({ DYNAMODB_ENDPOINT: NO_ENGINE }),
      buildLambdaOnce().then((bundle) =>
        loadLambdaRuntime(bundle, { DYNAMODB_ENDPOINT: NO_ENGINE, SHARDLINE_CREATE_TABLE: 'false' }),
      ),
    ]);
    const origin = async (runtime: RunningRuntime) => new URL((await runtime.request('/openapi.json')).url).origin;
    runtimes.node = { origin: await origin(node), runtime: node };
    runtimes.worker = { origin: await origin(worker), runtime: worker };
    runtimes.lambda = { origin: 'http://lambda.invalid', runtime: lambda, lambda };
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(Object.values(runtimes).map(({ runtime }) => runtime.close()));
  });

  it.each(['node', 'worker', 'lambda'])('renders every operation when served by %s', async (name) => {
    const { origin, runtime, lambda } = runtimes[name]!;
    const spec = (await (await runtime.request('/openapi.json')).json()) as ApiDocument;
    const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.length).toBeGreaterThan(10);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const outside: string[] = [];
    const failed: string[] = [];
    const problems: string[] = [];
    await page.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.origin !== origin) {
        outside.push(url.href);
        return route.abort('internetdisconnected');
      }
      if (!lambda) return route.continue();
      const answer = await lambda.invoke('http-v2', {
        method: route.request().method(),
        path: url.pathname + url.search,
        headers: await route.request().allHeaders(),
      });
      return route.fulfill({
        status: answer.status,
        headers: Object.fromEntries(answer.headers),
        body: Buffer.from(await answer.arrayBuffer()),
      });
    });
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });

    await page.goto(`${origin}/docs`);
    await page
      .locator('.opblock')
      .nth(operations.length - 1)
      .waitFor({ timeout: 30_000 });
    const shown = await renderedOperations(page);
    expect(shown.sort()).toEqual([...operations].sort());
    await expect.poll(() => page.locator('.info .title').innerText()).toContain(spec.info.title);

    // Open the listing operation: its parameters come from the request schemas.
    await page
      .locator('.opblock-get', { hasText: '/collections/{collection}/items' })
      .first()
      .locator('.opblock-summary')
      .click();
    await page.waitForSelector('.parameters [data-param-name="cursor"]');
    const parameters = await page
      .locator('.parameters tr[data-param-name]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-param-name')));
    expect(parameters).toEqual(
      expect.arrayContaining(['collection', 'limit', 'order', 'cursor', 'key', 'prefix', 'from', 'to']),
    );

    const file = resolve(SCREENSHOTS, `docs-${name}.png`);
    const png = await page.screenshot({ fullPage: true });
    writeFileSync(file, png);
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(30_000);

    expect(outside, 'requests that left the service').toEqual([]);
    expect(failed, 'failed requests').toEqual([]);
    expect(problems, 'page errors').toEqual([]);
    await page.close();
  });
});

/** "GET /path" for each operation block Swagger UI drew. */
async function renderedOperations(page: Page): Promise<string[]> {
  return page.locator('.opblock').evaluateAll((blocks) =>
    blocks.map((block) => {
      const method = block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '?';
      const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '?';
      return `${method} ${path}`;
    }),
  );
}
