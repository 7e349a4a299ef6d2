import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/runtime/service';
import { ROOT, startNodeServer, type RunningRuntime } from '../runtimes/support/runtimes';
import { call } from '../support/http';
import { startTestService } from '../support/service';
import { HOT_TITLE, SHARDS, skewedItems } from './skewed-load';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Bars per shard: writes, items read, queries, throttles. */
const SERIES = 4;

/**
 * /collections/{c}/heat in headless Chromium, served by the Node server over DynamoDB
 * Local after a skewed load: every shard drawn, the hot key named first, range boundaries
 * shown, the page refreshing itself from /stats — and no request leaving the service.
 */
describe('the heat page in headless Chromium, offline', () => {
  let browser: Browser;
  let service: Service;
  let server: RunningRuntime;
  let origin: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
    service = await startTestService('dynamodbLocal');
    const answer = await call(service.app, 'POST', '/collections/albums-hash/items/batch', {
      items: skewedItems(0, 1000),
    });
    expect(answer.body.failed).toEqual([]);
    // Other primary keys than the hash collection's: one table item belongs to one collection.
    const range = await call(service.app, 'POST', '/collections/albums/items/batch', {
      items: skewedItems(0, 200).map((item) => ({ ...item, pk: `range-${item.pk}` })),
    });
    expect(range.body.failed).toEqual([]);
    server = await startNodeServer(service.app);
    origin = new URL((await server.request('/healthz')).url).origin;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens the page, blocking and recording every request that is not to the service. */
  async function open(path: string): Promise<{ page: Page; outside: string[]; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const outside: string[] = [];
    const problems: string[] = [];
    await page.route('**/*', (route) => {
      if (new URL(route.request().url()).origin === origin) return route.continue();
      outside.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${origin}${path}`);
    return { page, outside, problems };
  }

  it('draws every shard and names the hot key first, then refreshes from /stats', async () => {
    const { page, outside, problems } = await open('/collections/albums-hash/heat');
    await expect.poll(() => page.locator('rect[data-shard]').count()).toBe(SHARDS * SERIES);
    const shards = await page
      .locator('svg[data-series="writes"] rect[data-shard]')
      .evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('data-shard'))));
    expect(shards).toEqual(Array.from({ length: SHARDS }, (_, i) => i));
    // The hot shard's bar is the tallest.
    const heights = await page
      .locator('svg[data-series="writes"] rect[data-shard]')
      .evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('height'))));
    expect(Math.max(...heights)).toBe(100);
    const firstRow = page.locator('#hot-keys tbody tr').first();
    expect(await firstRow.locator('td').first().innerText()).toBe(JSON.stringify(HOT_TITLE.toLowerCase()));
    expect(Number(await firstRow.locator('td').nth(1).innerText())).toBe(300);
    await expect.poll(() => page.locator('#summary').innerText()).toContain('1000 writes');

    // More writes: the page learns of them by itself.
    const more = await call(service.app, 'POST', '/collections/albums-hash/items/batch', {
      items: skewedItems(1000, 500),
    });
    expect(more.body.failed).toEqual([]);
    await expect.poll(() => page.locator('#summary').innerText(), { timeout: 10_000 }).toContain('1500 writes');
    expect(await page.locator('#status').innerText()).toMatch(/^updated/);
    mkdirSync(resolve(ROOT, '.cache/screenshots'), { recursive: true });
    await page.screenshot({ path: resolve(ROOT, '.cache/screenshots/heat-albums-hash.png'), fullPage: true });
    expect(outside, 'requests that left the service').toEqual([]);
    expect(problems, 'page errors').toEqual([]);
    await page.close();
  });

  it('shows where each shard of a range collection starts', async () => {
    const { page, outside, problems } = await open('/collections/albums/heat');
    const stats = (await call(service.app, 'GET', '/collections/albums/stats')).body;
    expect(stats.boundaries.length).toBe(stats.shardCount);
    await expect.poll(() => page.locator('svg[data-series="writes"] text.boundary').count()).toBe(stats.shardCount);
    const title = await page.locator('svg[data-series="writes"] rect[data-shard="1"] title').textContent();
    expect(title).toContain(`shard 1 from ${JSON.stringify(stats.boundaries[1])}`);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
