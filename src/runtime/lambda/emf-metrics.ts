import { DeltaRecorder, type Deltas } from '../../service/metrics/deltas';

/**
 * Lambda's metrics: the figures of /metrics (by their Prometheus names) as CloudWatch Embedded Metric Format
 * lines on stdout when the request ends, which CloudWatch Logs turns into metrics with no API call.
 */
export function emfRecorder(write: (line: string) => void = console.log, now: () => number = Date.now): DeltaRecorder {
  return new DeltaRecorder((deltas) => {
    for (const line of emfLines(deltas, now())) write(line);
  });
}

export function emfLines(deltas: Deltas, timestamp: number): string[] {
  // A line's metrics are its values other than its dimensions, all in one unit.
  const line = (dimensions: string[], unit: string, values: Record<string, string | number>) => {
    const metrics = Object.keys(values).filter((name) => !dimensions.includes(name));
    const directive = {
      Namespace: 'shardline',
      Dimensions: [dimensions],
      Metrics: metrics.map((Name) => ({ Name, Unit: unit })),
    };
    return JSON.stringify({ _aws: { Timestamp: timestamp, CloudWatchMetrics: [directive] }, ...values });
  };
  const { route, method, status, seconds } = deltas.request;
  return [
    ...deltas.shards.map((d) =>
      line(['collection', 'shard'], 'Count', {
        collection: d.collection,
        shard: String(d.shard),
        shardline_shard_writes_total: d.writes,
        shardline_shard_queries_total: d.queries,
        shardline_shard_items_read_total: d.itemsRead,
        shardline_shard_throttles_total: d.throttles,
      }),
    ),
    ...deltas.retries.map(({ operation, reason, count }) =>
      line(['operation', 'reason'], 'Count', { operation, reason, shardline_dynamodb_retries_total: count }),
    ),
    ...deltas.hedges.flatMap((h) =>
      (['won', 'lost'] as const)
        .filter((outcome) => h[outcome] !== 0)
        .map((outcome) =>
          line(['collection', 'outcome'], 'Count', {
            collection: h.collection,
            outcome,
            shardline_shard_query_hedges_total: h[outcome],
          }),
        ),
    ),
    ...deltas.mapVersions.map(({ collection, version }) =>
      line(['collection'], 'None', { collection, shardline_map_version: version }),
    ),
    line(['route', 'method', 'status'], 'Seconds', {
      route,
      method,
      status: String(status),
      shardline_http_request_duration_seconds: seconds,
    }),
  ];
}
