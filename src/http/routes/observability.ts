import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { apiRoute } from '../api-route';
import { orderOf, readableBoundaries } from '../../core/order';
import type { CallContext } from '../../store/retry';
import type { AppDeps, AppEnv } from '../env';
import { HEAT_PAGE_CSP, heatPageHtml } from '../heat/page';
import { CollectionParam, collectionPathResponses, jsonContent, queryErrorResponse } from '../schemas';
import { StatsResponse } from '../stats-schemas';
import { groupMapSummary } from './group-summary';
import { readableHotKeys } from './load';

/** The one path the metrics key (METRICS_KEY) may read (app.ts marks it for bearerAuth). */
export const METRICS_PATH = '/metrics';

const metricsRoute = apiRoute({
  method: 'get',
  path: METRICS_PATH,
  operationId: 'getMetrics',
  summary: 'Prometheus metrics of this router process (Node server)',
  tags: ['observability'],
  description: 'Per-shard queries, items read and writes, DynamoDB retries, map versions, HTTP latency.',
  responses: {
    200: { content: { 'text/plain': { schema: z.string() } }, description: 'Prometheus text format 0.0.4' },
    ...queryErrorResponse,
  },
});

const statsRoute = apiRoute({
  method: 'get',
  path: '/collections/{collection}/stats',
  operationId: 'getStats',
  summary: 'Per-shard load and hot keys seen by this router, since start and over the last minute',
  description:
    "Queries, items read and writes per shard of the collection's current read map, their imbalance and the " +
    'hottest keys, as this router process counted them (each process counts its own). A grouped collection ' +
    'adds its group map: the groups off the default shards, most shards first.',
  tags: ['observability'],
  request: { params: CollectionParam },
  responses: {
    200: jsonContent(StatsResponse, 'the figures'),
    ...collectionPathResponses,
  },
});

const heatRoute = apiRoute({
  method: 'get',
  path: '/collections/{collection}/heat',
  operationId: 'getHeatPage',
  summary: 'An HTML page charting the shards and hot keys, refreshing itself from /stats or /load',
  description:
    'For a browser: the figures of GET /collections/{collection}/stats (this router) or, where load records are ' +
    'on, of GET /collections/{collection}/load (every router) as charts, self-contained.',
  tags: ['observability'],
  request: { params: CollectionParam },
  responses: {
    200: { content: { 'text/html': { schema: z.string() } }, description: 'the page (works offline)' },
    ...collectionPathResponses,
  },
});

/** /metrics where the runtime offers an exposition; /stats and /heat where the router keeps statistics. */
export function registerObservabilityRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const { shardline } = deps;
  const { exposition, stats: metrics } = deps.observability ?? {};
  if (exposition) {
    app.openapi(metricsRoute, async (c) => {
      const { contentType, body } = await exposition();
      return c.text(body, 200, { 'content-type': contentType, 'cache-control': 'no-store' });
    });
  }
  if (!metrics) return;
  const statsOf = async (name: string, context: CallContext) => {
    const collection = shardline.collection(name);
    const { read, pointer } = await shardline.snapshot(name, context);
    const { strategy } = read.map;
    const order = orderOf(collection);
    const boundaryValues = strategy.boundaries && readableBoundaries(order, strategy.boundaries);
    const { sinceStart, lastMinute } = metrics.stats(collection.name, strategy.shardCount);
    const readable = (span: typeof sinceStart) => ({ ...span, hotKeys: readableHotKeys(order, span.hotKeys) });
    const groups = groupMapSummary(read);
    return {
      collection: collection.name,
      strategy: strategy.kind,
      shardCount: strategy.shardCount,
      mapVersion: pointer.read.version,
      ...(strategy.boundaries && { boundaries: [...strategy.boundaries] }),
      ...(boundaryValues && { boundaryValues }),
      hotKeyCapacity: metrics.hotKeyCapacity,
      startedAt: new Date(metrics.startedAt).toISOString(),
      sinceStart: readable(sinceStart),
      lastMinute: readable(lastMinute),
      ...(groups && { groups }),
    };
  };
  app.openapi(statsRoute, async (c) =>
    c.json(await statsOf(c.req.valid('param').collection, c.get('call')), 200, { 'cache-control': 'no-store' }),
  );
  app.openapi(heatRoute, async (c) => {
    // The first picture comes with the page, which then polls /stats, or /load where load records are kept.
    const initial = await statsOf(c.req.valid('param').collection, c.get('call'));
    return c.html(heatPageHtml(initial, { fleet: shardline.recordsLoad }), 200, {
      'content-security-policy': HEAT_PAGE_CSP,
      'cache-control': 'no-store',
    });
  });
}
