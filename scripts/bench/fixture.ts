import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildService, prepareTables, type RuntimeMetrics, type Service } from '../../src/runtime/service';
import { readSettings, type EnvMap } from '../../src/runtime/settings';
import type { RouterMetrics } from '../../src/service/metrics/router-metrics';
import { albumItem } from './items';
import { seededRandom } from '../../devtools/random';
import { titlesOverRanges } from '../../devtools/titles';

const ROOT = resolve(import.meta.dirname, '../..');
export const TABLE = 'shardline-bench';
const SECRET = 'bench-secret';

/**
 * The demo's album collections, plus `albums-one`: the same data on one shard, the latency reference.
 * Not the grouped `orders`: the benches load and list albums in every collection.
 */
export function benchConfig(): unknown {
  const config = JSON.parse(readFileSync(resolve(ROOT, 'config/shardline.config.json'), 'utf8')) as {
    collections: Record<string, { group?: unknown; [setting: string]: unknown }>;
  };
  for (const [name, spec] of Object.entries(config.collections)) if (spec.group) delete config.collections[name];
  config.collections['albums-one'] = {
    field: 'title',
    normalization: 'nfkd-lower',
    strategy: { kind: 'hash', shards: 1 },
  };
  return config;
}

/**
 * The real service (config, SDK clients, store, Hono app) over `endpoint`, as `npm start` builds it,
 * without its request log (the bench prints to stdout); `env` adds settings, `metrics` a runtime's sink.
 */
export function benchService(
  endpoint: string,
  env: EnvMap = {},
  metrics?: (stats: RouterMetrics) => RuntimeMetrics,
): Service {
  const settings = readSettings({
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_NAME: TABLE,
    CURSOR_SECRET: SECRET,
    LOG_LEVEL: 'off',
    // Loading writes batches of 1,000; on a shared 2-core machine one can outlast the 10 s default.
    REQUEST_TIMEOUT_MS: '60000',
    ...env,
  });
  return buildService(settings, benchConfig(), {
    readBoundaries: (file) => JSON.parse(readFileSync(resolve(ROOT, 'config', file), 'utf8')),
    client: { credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } },
    ...(metrics && { metrics }),
  });
}

/**
 * Loads `count` seed-shaped items into every collection through the service's own
 * batch route. The titles are the same in every collection (one seeded draw over the
 * seed's 21 boundaries); primary keys differ per collection since they share a table.
 */
export async function loadItems(service: Service, count: number, seed: number): Promise<Map<string, number>> {
  await prepareTables(service, true);
  const albums = service.collections.find((c) => c.initialStrategy.kind === 'range');
  const boundaries = albums?.initialStrategy.boundaries ?? [''];
  const titles = titlesOverRanges(seededRandom(seed), boundaries, count);
  const loaded = new Map<string, number>();
  for (const collection of service.collections) {
    const random = seededRandom(seed + 1);
    const items = titles.map((title, n) => {
      const item = albumItem(random, n, title);
      return { ...item, pk: `${collection.name}#${String(item.pk)}` };
    });
    let written = 0;
    for (let start = 0; start < items.length; start += 1000) {
      const response = await service.app.request(`/collections/${collection.name}/items/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: items.slice(start, start + 1000) }),
      });
      const body = (await response.json()) as { written: number; failed: unknown[] };
      if (response.status !== 200 || body.failed.length > 0) {
        throw new Error(`loading ${collection.name}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
      }
      written += body.written;
    }
    loaded.set(collection.name, written);
  }
  return loaded;
}
