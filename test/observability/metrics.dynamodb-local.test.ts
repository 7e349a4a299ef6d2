import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prometheusExporter } from '../../src/runtime/node/prometheus';
import type { Service } from '../../src/runtime/service';
import { call, get } from '../support/http';
import { startTestService } from '../support/service';
import { expectedShard, HOT_TITLE, type LoadItem, SHARDS, skewedItems, writesPerShard } from './skewed-load';

const COLLECTION = 'albums-hash';
const HOT_KEY = HOT_TITLE.toLowerCase();
const K = 100;
const LATENCY = 'shardline_http_request_duration_seconds';

type Family = ReturnType<typeof parsePrometheusTextFormat>[number];

/** Writes through the router, 1000 items a batch, two batches in flight; every item must land. */
async function load(app: Service['app'], items: readonly LoadItem[]): Promise<void> {
  const batches: LoadItem[][] = [];
  for (let i = 0; i < items.length; i += 1000) batches.push(items.slice(i, i + 1000));
  const next = async (): Promise<void> => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      const answer = await call(app, 'POST', `/collections/${COLLECTION}/items/batch`, { items: batch });
      expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
      expect(answer.body.failed).toEqual([]);
    }
  };
  await Promise.all([next(), next()]);
}

async function scrape(app: Service['app']): Promise<Family[]> {
  const response = await app.request('/metrics');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const families = parsePrometheusTextFormat(text);
  // The parser folds a labelled histogram's series into one; its _count series, parsed on
  // their own (untyped), keep their labels.
  const counts = text.split('\n').filter((line) => line.startsWith(`${LATENCY}_count{`));
  return [...families, ...parsePrometheusTextFormat(`${counts.join('\n')}\n`)];
}

/** A counter's samples for the collection, by shard. */
function byShard(families: Family[], name: string): number[] {
  const family = families.find((f) => f.name === name);
  expect(family, name).toBeDefined();
  expect(family!.type).toBe('COUNTER');
  const counts = new Array<number>(SHARDS).fill(0);
  for (const sample of family!.metrics) {
    if (sample.labels?.collection !== COLLECTION) continue;
    counts[Number(sample.labels.shard)] = Number(sample.value);
  }
  return counts;
}

/**
 * The metrics of docs/operations.md on DynamoDB Local: a skewed load on a hash collection (one title 30 % of the
 * writes), then the figures /metrics and /stats give are checked against what was done.
 */
describe('metrics, stats and the request log on DynamoDB Local', () => {
  let service: Service;
  const written: LoadItem[] = [];
  /** The request log, kept out of the test output. */
  const logged: string[] = [];

  beforeAll(async () => {
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logged.push(String(line)));
    service = await startTestService('dynamodbLocal', {
      // Batches of 1,000 on an engine starved by the rest of the suite can outlast the 10 s default;
      // what is tested here is what gets counted, not the deadline.
      env: { LOG_LEVEL: 'info', HOT_KEYS: String(K), REQUEST_TIMEOUT_MS: '60000' },
      metrics: prometheusExporter,
    });
  });
  afterAll(() => vi.restoreAllMocks());

  it('counts every write on the shard the strategy gives it, exactly', async () => {
    const items = skewedItems(0, 3000);
    await load(service.app, items);
    written.push(...items);
    const families = await scrape(service.app);
    expect(byShard(families, 'shardline_shard_writes_total')).toEqual(writesPerShard(written));
    const version = families.find((f) => f.name === 'shardline_map_version')!;
    expect(version.type).toBe('GAUGE');
    expect(version.metrics.find((m) => m.labels?.collection === COLLECTION)?.value).toBe('1');
    expect(families.find((f) => f.name === LATENCY)?.type).toBe('HISTOGRAM');
    const requests = families.find((f) => f.name === `${LATENCY}_count`)!.metrics;
    const batches = requests.find(
      (m) => m.labels?.route === '/collections/:collection/items/batch' && m.labels.status === '200',
    );
    expect(batches?.labels?.method).toBe('POST');
    expect(Number(batches?.value)).toBe(3);
    // The route pattern, never the raw path: no label names a collection.
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((m) => !m.labels?.route?.includes(COLLECTION))).toBe(true);
  });

  it('counts shard queries and items read as the listings report them', async () => {
    const before = await scrape(service.app);
    let queries = 0;
    let itemsRead = 0;
    for (const path of ['?limit=50', '?limit=200&order=desc', `?key=${encodeURIComponent(HOT_TITLE)}&limit=20`]) {
      const answer = await get(service.app, `/collections/${COLLECTION}/items${path}`);
      expect(answer.status).toBe(200);
      queries += Number(answer.headers.get('x-shard-queries'));
      itemsRead += Number(answer.headers.get('x-items-read'));
    }
    const after = await scrape(service.app);
    const delta = (name: string) => {
      const [a, b] = [byShard(before, name), byShard(after, name)];
      return b.reduce((sum, n, shard) => sum + n - a[shard]!, 0);
    };
    expect(queries).toBeGreaterThan(SHARDS);
    expect(delta('shardline_shard_queries_total')).toBe(queries);
    expect(delta('shardline_shard_items_read_total')).toBe(itemsRead);
    // A key lookup on a hash collection reads the key's shard alone.
    const perShard = byShard(after, 'shardline_shard_queries_total');
    expect(perShard[expectedShard(HOT_TITLE)]).toBeGreaterThan(perShard[(expectedShard(HOT_TITLE) + 1) % SHARDS]!);
  });

  it('names the hot key first in /stats, within 5 %, with bounded memory after 20,000 distinct keys', async () => {
    const first = await get(service.app, `/collections/${COLLECTION}/stats`);
    expect(first.status).toBe(200);
    expect(first.body.sinceStart.hotKeys[0].key).toBe(HOT_KEY);

    const more = skewedItems(3000, 26_000);
    await load(service.app, more);
    written.push(...more);
    const distinct = new Set(written.map((item) => item.title)).size;
    expect(distinct).toBeGreaterThan(20_000);
    const hotWrites = written.filter((item) => item.title === HOT_TITLE).length;

    const stats = (await get(service.app, `/collections/${COLLECTION}/stats`)).body;
    const expected = writesPerShard(written);
    expect(stats.sinceStart.writes).toBe(written.length);
    expect(stats.sinceStart.shards.map((s: { writes: number }) => s.writes)).toEqual(expected);
    const mean = written.length / SHARDS;
    expect(stats.sinceStart.imbalance).toBeCloseTo(Math.max(...expected) / mean, 9);
    expect(stats.hotKeyCapacity).toBe(K);
    for (const span of [stats.sinceStart, stats.lastMinute]) {
      expect(span.hotKeys.length).toBeLessThanOrEqual(K);
      const [top] = span.hotKeys;
      expect(top.key).toBe(HOT_KEY);
      // Space-Saving's guarantee: count − error ≤ true count ≤ count.
      expect(top.count - top.error).toBeLessThanOrEqual(hotWrites);
    }
    const top = stats.sinceStart.hotKeys[0];
    expect(top.count).toBeGreaterThanOrEqual(hotWrites);
    expect(Math.abs(top.count - hotWrites) / hotWrites).toBeLessThanOrEqual(0.05);
    expect(stats.sinceStart.hotKeyErrorBound).toBeLessThanOrEqual(written.length / K);
    expect(stats.lastMinute.writes).toBeGreaterThan(0);
    expect(stats.lastMinute.writes).toBeLessThanOrEqual(written.length);

    const families = await scrape(service.app);
    expect(byShard(families, 'shardline_shard_writes_total')).toEqual(expected);
  });

  it('logs one JSON line per request, carrying its id, route and figures', async () => {
    logged.length = 0;
    const echoed = await service.app.request(`/collections/${COLLECTION}/items?limit=5`, {
      headers: { 'x-request-id': 'obs-check-1' },
    });
    const generated = await service.app.request('/collections/nope/items');
    expect(echoed.headers.get('x-request-id')).toBe('obs-check-1');
    const lines = logged.map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 'info',
      requestId: 'obs-check-1',
      method: 'GET',
      route: '/collections/:collection/items',
      status: 200,
      shardQueries: Number(echoed.headers.get('x-shard-queries')),
      itemsRead: Number(echoed.headers.get('x-items-read')),
      retries: 0,
    });
    expect(lines[0].durationMs).toBeGreaterThan(0);
    expect(lines[1]).toMatchObject({ level: 'warn', status: 404, requestId: generated.headers.get('x-request-id') });
    expect(lines[1].requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
