import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeServer, type RunningRuntime } from '../runtimes/support/runtimes';
import { launchChromium } from '../support/chromium';
import { call } from '../support/http';
import { startTestService } from '../support/service';
import { GROUPS_CONFIG, resize } from './support';

type Service = Awaited<ReturnType<typeof startTestService>>;

/**
 * The heat page of a grouped collection in headless Chromium over DynamoDB Local: the group map drawn
 * (the groups off the default, most shards first, with their phase), the charts saying their bars are
 * shards of a group summed over the groups, and hot groups drawn from any span that carries them.
 */
describe('the heat page of a grouped collection', () => {
  let browser: Browser;
  let service: Service;
  let server: RunningRuntime;
  let origin: string;

  beforeAll(async () => {
    // Load records on: the fleet spans can be chosen.
    const env = { SHARDLINE_MAP_TTL_MS: '50', SHARDLINE_LOAD_RECORDS: 'true' };
    service = await startTestService('dynamodbLocal', { config: GROUPS_CONFIG, env });
    await resize(service, 'orders', 'whale', 4);
    await resize(service, 'orders', 'mid', 2);
    const items = Array.from({ length: 30 }, (_, i) => ({
      pk: `o${i}`,
      sk: 'order',
      customerId: i < 20 ? 'whale' : `c${i}`,
      orderDate: '2026-03-01',
    }));
    expect((await call(service.app, 'POST', '/collections/orders/items/batch', { items })).body.failed).toEqual([]);
    server = await startNodeServer(service.app);
    origin = new URL((await server.request('/healthz')).url).origin;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${origin}${path}`);
    return { page, problems };
  }

  const cells = (page: Page, table: string) =>
    page
      .locator(`#${table} tbody tr`)
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent)));

  it('draws the group map, largest groups first, and says what the bars of a grouped collection are', async () => {
    const { page, problems } = await open('/collections/orders/heat');
    await expect.poll(() => page.locator('#groups-box').isVisible()).toBe(true);
    expect(await cells(page, 'groups')).toEqual([
      ['"whale"', '4', '4', 'stable'],
      ['"mid"', '2', '2', 'stable'],
    ]);
    const summary = await page.locator('#groups-summary').innerText();
    expect(summary).toContain(
      'grouped by customerId (string): every group on 1 shard unless listed; 2 off the default',
    );
    expect(await page.locator('#summary').innerText()).toContain('random, 1 shard a group by default');
    expect(await page.locator('.chart h2').first().innerText()).toBe(
      'writes per shard of a group (every group summed)',
    );
    // This router's figures count no writes by group: the note says so, and no hot groups table shows.
    expect(await page.locator('#hot-groups-box').isVisible()).toBe(false);
    expect(await page.locator('#hot-groups-note').innerText()).toMatch(/do not count writes by group/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws hot groups from a span that carries them', async () => {
    const { page, problems } = await open('/collections/orders/heat');
    // The figures as a router that counts writes by group would answer them.
    const stats = (await call(service.app, 'GET', '/collections/orders/stats')).body;
    const hotGroups = { keys: [{ key: 'whale', count: 20, error: 0 }], total: 30, errorBound: 0 };
    await page.route('**/stats', (route) =>
      route.fulfill({ json: { ...stats, lastMinute: { ...stats.lastMinute, hotGroups } } }),
    );
    await expect.poll(() => page.locator('#hot-groups-box').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await cells(page, 'hot-groups')).toEqual([['"whale"', '20', '0', '66.7 %']]);
    expect(await page.locator('#hot-groups-note').innerText()).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  });

  it("draws hot groups from the fleet's load where it carries them", async () => {
    const { page, problems } = await open('/collections/orders/heat');
    const hotGroups = { keys: [{ key: 'whale', count: 40, error: 2 }], total: 50, errorBound: 2 };
    await page.route('**/load?*', async (route) => {
      const load = await (await route.fetch()).json();
      await route.fulfill({ json: { ...load, hotGroups } });
    });
    await page.selectOption('#span', 'fleet:5');
    await expect.poll(() => page.locator('#hot-groups-box').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await cells(page, 'hot-groups')).toEqual([['"whale"', '40', '2', '80.0 %']]);
    expect(await page.locator('#summary').innerText()).toContain('1 shard a group by default');
    expect(await page.locator('.chart h2').first().innerText()).toBe(
      'writes/s per shard of a group (every group summed)',
    );
    expect(await cells(page, 'groups')).toHaveLength(2);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows no groups for an ungrouped collection', async () => {
    const { page, problems } = await open('/collections/albums/heat');
    await expect.poll(() => page.locator('rect[data-shard]').count()).toBeGreaterThan(0);
    expect(await page.locator('#groups-box').isVisible()).toBe(false);
    expect(await page.locator('.chart h2').first().innerText()).toBe('writes per shard');
    expect(problems).toEqual([]);
    await page.close();
  });
});
