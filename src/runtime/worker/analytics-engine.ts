import { DeltaRecorder, type Deltas } from '../../service/metrics/deltas';

/** The one method of a Workers Analytics Engine dataset binding shardline uses. */
export interface AnalyticsEngineDataset {
  writeDataPoint(point: { blobs?: string[]; doubles?: number[]; indexes?: string[] }): void;
}

/** The binding's name in wrangler.toml (`[[analytics_engine_datasets]] binding = "METRICS"`). */
export const ANALYTICS_BINDING = 'METRICS';

/**
 * The Worker's metrics: the figures of /metrics as Workers Analytics Engine data points,
 * when a dataset is bound. Each point's first blob says what it is; query them with SQL:
 * - `shard`: blobs [kind, collection, shard], doubles [writes, queries, itemsRead, throttles]
 * - `retry`: blobs [kind, operation, reason], doubles [count]
 * - `hedge`: blobs [kind, collection], doubles [won, lost]
 * - `map`: blobs [kind, collection], doubles [version]
 * - `request`: blobs [kind, route, method, status], doubles [seconds]
 * The index is the collection (or the route), Analytics Engine's sampling key.
 */
export function analyticsEngineRecorder(dataset: AnalyticsEngineDataset): DeltaRecorder {
  return new DeltaRecorder((deltas) => {
    for (const point of dataPoints(deltas)) dataset.writeDataPoint(point);
  });
}

export function dataPoints(deltas: Deltas): { blobs: string[]; doubles: number[]; indexes: string[] }[] {
  const { route, method, status, seconds } = deltas.request;
  return [
    ...deltas.shards.map((d) => ({
      blobs: ['shard', d.collection, String(d.shard)],
      doubles: [d.writes, d.queries, d.itemsRead, d.throttles],
      indexes: [d.collection],
    })),
    ...deltas.retries.map((r) => ({ blobs: ['retry', r.operation, r.reason], doubles: [r.count], indexes: ['retry'] })),
    ...deltas.hedges.map((h) => ({
      blobs: ['hedge', h.collection],
      doubles: [h.won, h.lost],
      indexes: [h.collection],
    })),
    ...deltas.mapVersions.map((m) => ({ blobs: ['map', m.collection], doubles: [m.version], indexes: [m.collection] })),
    { blobs: ['request', route, method, String(status)], doubles: [seconds], indexes: [route] },
  ];
}
