import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { NO_METRICS } from '../../service/metrics/recorder';
import type { RouterMetrics } from '../../service/metrics/router-metrics';
import type { RuntimeMetrics } from '../service';

/** Latency buckets in seconds: a cached page takes milliseconds, a slow scatter seconds. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Node server's /metrics with prom-client (kept out of the Worker and Lambda bundles). Counters are read from
 * `stats` at scrape time, so requests pay only for the latency histogram.
 */
export function prometheusExporter(stats: RouterMetrics): Required<RuntimeMetrics> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const latency = new Histogram({
    name: 'shardline_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  /** A counter set afresh from `stats` at each scrape: `count` calls `inc` once per series. */
  const counter = (name: string, help: string, labelNames: string[], count: (inc: Counter['inc']) => void) =>
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        count(this.inc.bind(this));
      },
    });
  const shardCounter = (name: string, help: string, field: 'queries' | 'itemsRead' | 'writes' | 'throttles') =>
    // `version`: the read map the shard numbers belong to (the current one, and the one before).
    counter(name, help, ['collection', 'shard', 'version'], (inc) => {
      for (const { collection, version, counters } of stats.totals()) {
        const labels = { collection, version: version === undefined ? '' : String(version) };
        for (const [shard, n] of counters[field].entries()) inc({ ...labels, shard: String(shard) }, n);
      }
    });
  shardCounter('shardline_shard_queries_total', 'DynamoDB queries sent to each shard', 'queries');
  shardCounter('shardline_shard_items_read_total', 'items DynamoDB read from each shard', 'itemsRead');
  shardCounter('shardline_shard_writes_total', 'items written to each shard', 'writes');
  shardCounter('shardline_shard_throttles_total', 'DynamoDB throttles of calls against each shard', 'throttles');
  counter(
    'shardline_dynamodb_retries_total',
    'DynamoDB calls tried again, by operation and reason',
    ['operation', 'reason'],
    (inc) => {
      for (const { operation, reason, count } of stats.retries()) inc({ operation, reason }, count);
    },
  );
  const hedgesHelp = 'slow shard queries sent again (hedged), by whether the second query answered first';
  counter('shardline_shard_query_hedges_total', hedgesHelp, ['collection', 'outcome'], (inc) => {
    for (const { collection, won, lost } of stats.hedges()) {
      inc({ collection, outcome: 'won' }, won);
      inc({ collection, outcome: 'lost' }, lost);
    }
  });
  new Gauge({
    name: 'shardline_map_version',
    help: 'the shard map version each collection is read by',
    labelNames: ['collection'],
    registers: [registry],
    collect() {
      for (const [collection, version] of stats.mapVersions()) this.set({ collection }, version);
    },
  });
  return {
    recorder: {
      ...NO_METRICS,
      enabled: true,
      requestDone: ({ route, method, status, seconds }) =>
        latency.observe({ route, method, status: String(status) }, seconds),
    },
    exposition: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}
