import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pick, type Random } from '../../devtools/random';
import type { RoutedCollection } from '../../src/core/collection';
import { resizeGroup, type GroupResizeOutcome } from '../../src/reshard/group-resize';
import { buildService, prepareTables, type Service } from '../../src/runtime/service';
import { readSettings } from '../../src/runtime/settings';

const ROOT = resolve(import.meta.dirname, '../..');
export const GROUPED = 'orders';

/**
 * The service over a table of its own holding one grouped collection: customers' orders, newest
 * first (the issue's example). A short map TTL, so that a resize's short settle time covers three
 * of them as production's does (docs/performance.md#groups).
 */
export async function groupBenchService(endpoint: string, table: string, mapTtlMs: number): Promise<Service> {
  const demo = JSON.parse(readFileSync(resolve(ROOT, 'config/shardline.config.json'), 'utf8')) as object;
  const config = {
    ...demo,
    collections: { [GROUPED]: { group: 'customerId', order: [{ field: 'orderDate', direction: 'desc' }] } },
  };
  const settings = readSettings({
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_NAME: table,
    CURSOR_SECRET: 'bench-groups',
    LOG_LEVEL: 'off',
    SHARDLINE_TABLE_STREAM: 'off',
    SHARDLINE_MAP_TTL_MS: String(mapTtlMs),
    // Loading writes batches of 1,000; on a shared 2-core machine one can outlast the 10 s default.
    REQUEST_TIMEOUT_MS: '60000',
  });
  const service = buildService(settings, config, {
    readBoundaries: () => [],
    client: { credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } },
  });
  await prepareTables(service, true, false);
  return service;
}

const STATUSES = ['placed', 'paid', 'shipped', 'delivered', 'returned'];
const WORDS = 'gift wrap express pickup invoice note fragile reorder bundle voucher'.split(' ');
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** An order of about 500 bytes as stored, dated at random within 2026 (ms precision: dates rarely tie). */
function orderItem(random: Random, group: string, n: number): Record<string, unknown> {
  const item: Record<string, unknown> = {
    pk: `order#${group}#${String(n).padStart(6, '0')}`,
    sk: 'order',
    customerId: group,
    orderDate: new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * YEAR_MS)).toISOString(),
    status: pick(random, STATUSES),
    total: Math.round(random() * 100_000) / 100,
    lines: 1 + Math.floor(random() * 9),
  };
  // About 110 bytes go to the index keys and attribute names; notes pad the rest.
  let notes = '';
  while (notes.length < 500 - 110 - JSON.stringify(item).length) notes += `${pick(random, WORDS)} `;
  item.notes = notes;
  return item;
}

/** Writes `count` orders of `group` through the service's batch route, as a client would. */
export async function loadGroup(service: Service, group: string, count: number, random: Random): Promise<void> {
  for (let start = 0; start < count; start += 1000) {
    const items = Array.from({ length: Math.min(1000, count - start) }, (_, i) => orderItem(random, group, start + i));
    const response = await service.app.request(`/collections/${GROUPED}/items/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    });
    const body = (await response.json()) as { written: number; failed: unknown[] };
    if (response.status !== 200 || body.failed.length > 0) {
      throw new Error(`loading ${group}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
  }
}

/** The grouped collection as the service routes it now (its group map attached). */
export async function routedGrouped(service: Service): Promise<RoutedCollection> {
  const spec = service.collections.find((c) => c.name === GROUPED)!;
  return (await service.maps.snapshot(spec, {})).read as RoutedCollection;
}

/** Resizes a group as `npm run reshard -- --group` does, with `settleMs` for the settle time; timed. */
export async function timedResize(
  service: Service,
  group: string,
  shards: number,
  settleMs: number,
): Promise<GroupResizeOutcome & { ms: number }> {
  const started = performance.now();
  const outcome = await resizeGroup(
    {
      mapStore: service.dynamo.mapStore,
      queryShard: (query, context) => service.dynamo.items.queryShard(query, context),
      updateAttributes: (update, context) => service.dynamo.items.updateAttributes(update, context),
      collection: await routedGrouped(service),
      settleMs,
    },
    group,
    shards,
  );
  return { ...outcome, ms: performance.now() - started };
}
