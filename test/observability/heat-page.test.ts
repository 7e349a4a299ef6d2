import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/runtime/service';
import { ROOT, startNodeServer, type RunningRuntime } from '../runtimes/support/runtimes';
import { TestClock } from '../support/clock';
import { call } from '../support/http';
import { startTestService } from '../support/service';
import { HOT_TITLE, SHARDS, skewedItems } from './skewed-load';
import { launchChromium } from '../support/chromium';

/** Bars per shard: writes, items read, queries, throttles. */
const SERIES = 4;
/** The fleet view's series: /load's per-shard figures. */
const FLEET_SERIES = ['writesPerSecond', 'itemsReadPerSecond', 'queriesPerSecond', 'throttles', 'partitionShare'];
/** Load records of whole minutes: the router's clock (the test's) ends one, nothing waits it out. */
const MINUTE_MS = 60_000;
const FLEET = { SHARDLINE_LOAD_RECORDS: 'true', SHARDLINE_LOAD_MINUTE_MS: String(MINUTE_MS) };

/**
 * /collections/{c}/heat in headless Chromium, served by the Node server over DynamoDB
 * Local after a skewed load: every shard drawn, the hot key named first, range boundaries
 * shown, the page refreshing itself from /stats — and no request leaving the service. The
 * fleet spans draw /load (every router's load records) where the router keeps them, and
 * say they are off where it does not.
 */
describe('the heat page in headless Chromium, offline', () => {
  let browser: Browser;
  let service: Service;
  let server: RunningRuntime;
  let origin: string;

  beforeAll(async () => {
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
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens the page, blocking and recording every request that is not to the service (at `at`). */
  async function open(path: string, at = origin): Promise<{ page: Page; outside: string[]; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const outside: string[] = [];
    const problems: string[] = [];
    await page.route('**/*', (route) => {
      if (new URL(route.request().url()).origin === at) return route.continue();
      outside.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${at}${path}`);
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

  it('says the fleet view is off where the router keeps no load records', async () => {
    // The test run keeps load records off (vitest.config.ts): this router serves no /load.
    expect((await call(service.app, 'GET', '/collections/albums-hash/load')).status).toBe(404);
    const { page, outside, problems } = await open('/collections/albums-hash/heat');
    expect(await page.locator('#fleet-note').isVisible()).toBe(true);
    expect(await page.locator('#fleet-note').innerText()).toContain('SHARDLINE_LOAD_RECORDS');
    const disabled = await page
      .locator('#span option[value^="fleet:"]')
      .evaluateAll((options) => options.map((option) => option.matches(':disabled')));
    expect(disabled).toEqual([true, true, true]);
    // This router's own spans still draw.
    await expect.poll(() => page.locator('rect[data-shard]').count()).toBe(SHARDS * SERIES);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("draws the fleet's load from /load where the router keeps load records", async () => {
    // A minute behind: the writes fall in a minute the clock then ends by moving on to the present.
    const clock = new TestClock(MINUTE_MS);
    const fleet = await startTestService('dynamodbLocal', { env: FLEET, now: clock.now });
    const written = await call(fleet.app, 'POST', '/collections/albums-hash/items/batch', {
      items: skewedItems(0, 1000),
    });
    expect(written.body.failed).toEqual([]);
    expect((await call(fleet.app, 'GET', '/collections/albums-hash/items?limit=10')).status).toBe(200);
    // The minutes of those writes end; the router writes their records (a server's timer would).
    clock.advance(MINUTE_MS);
    expect(await fleet.load!.flush()).toBeGreaterThanOrEqual(1);
    const fleetServer = await startNodeServer(fleet.app);
    try {
      const at = new URL((await fleetServer.request('/healthz')).url).origin;
      const { page, outside, problems } = await open('/collections/albums-hash/heat', at);
      expect(await page.locator('#fleet-note').isVisible()).toBe(false);
      await page.selectOption('#span', 'fleet:15');
      const bars = (series: string) => page.locator(`svg[data-series="${series}"] rect[data-shard]`);
      await expect.poll(() => bars('writesPerSecond').count(), { timeout: 10_000 }).toBe(SHARDS);
      const load = (await call(fleet.app, 'GET', '/collections/albums-hash/load?minutes=15')).body;
      expect(load).toMatchObject({ routers: 1, windowSeconds: (15 * MINUTE_MS) / 1000, shardCount: SHARDS });
      // Every bar is the figure /load gives for its shard.
      for (const series of FLEET_SERIES) {
        const drawn = await bars(series).evaluateAll((rects) =>
          rects.map((rect) => [Number(rect.getAttribute('data-shard')), Number(rect.getAttribute('data-value'))]),
        );
        expect(drawn, series).toEqual(load.shards.map((s: Record<string, number>) => [s.shard, s[series]]));
      }
      const writes = load.shards.reduce((sum: number, s: { writesPerSecond: number }) => sum + s.writesPerSecond, 0);
      expect(Math.round(writes * load.windowSeconds)).toBe(1000);
      const heights = await bars('writesPerSecond').evaluateAll((rects) =>
        rects.map((rect) => Number(rect.getAttribute('height'))),
      );
      expect(Math.max(...heights)).toBe(100);
      const summary = await page.locator('#summary').innerText();
      expect(summary).toContain(`1 router reported over ${load.windowSeconds} s`);
      expect(summary).toContain(`imbalance ${load.imbalance.toFixed(2)}`);
      // The fleet's hot keys: writes from hotWrites, reads (where the listing's queries began) from hotReads.
      const firstRow = page.locator('#hot-keys tbody tr').first();
      expect(await firstRow.locator('td').first().innerText()).toBe(JSON.stringify(HOT_TITLE.toLowerCase()));
      expect(Number(await firstRow.locator('td').nth(1).innerText())).toBe(load.hotWrites.keys[0].count);
      expect(load.hotWrites.keys[0]).toMatchObject({ key: HOT_TITLE.toLowerCase(), count: 300 });
      expect(await page.locator('#hot-keys-bound').innerText()).toContain(`at most ${load.hotWrites.errorBound}`);
      expect(load.hotReads.keys.length).toBeGreaterThan(0);
      expect(await page.locator('#hot-reads-box').isVisible()).toBe(true);
      const firstRead = page.locator('#hot-reads tbody tr').first();
      expect(await firstRead.locator('td').first().innerText()).toBe(JSON.stringify(load.hotReads.keys[0].key));
      expect(Number(await firstRead.locator('td').nth(1).innerText())).toBe(load.hotReads.keys[0].count);
      await page.screenshot({ path: resolve(ROOT, '.cache/screenshots/heat-fleet.png'), fullPage: true });
      expect(outside).toEqual([]);
      expect(problems).toEqual([]);

      // Should /load answer 404 after all (another router behind the same name, without records), the page
      // turns the fleet spans off and goes back to this router's last minute.
      await page.route('**/load?*', (route) => route.fulfill({ status: 404, json: { error: { code: 'x' } } }));
      await page.selectOption('#span', 'fleet:5');
      await expect.poll(() => page.locator('#fleet-note').isVisible()).toBe(true);
      expect(await page.locator('#span').inputValue()).toBe('lastMinute');
      await expect.poll(() => bars('writes').count()).toBe(SHARDS);
      await page.close();
    } finally {
      await fleetServer.close();
    }
  });
});
