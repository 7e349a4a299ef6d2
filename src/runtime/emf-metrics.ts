import { DeltaRecorder, type Deltas } from '../service/metrics/deltas';

const NAMESPACE = 'shardline';

/**
 * Lambda's metrics: the figures of /metrics as CloudWatch Embedded Metric Format lines on
 * stdout, which CloudWatch Logs turns into metrics with no API call and no agent. One line
 * per shard touched, one per retry kind, one per map version change, and one for the
 * request's latency, written when the request ends. Metric names are the Prometheus ones.
 */
export function emfRecorder(write: (line: string) => void = console.log, now: () => number = Date.now): DeltaRecorder {
  return new DeltaRecorder((deltas) => {
    for (const line of emfLines(deltas, now())) write(line);
  });
}

export function emfLines(deltas: Deltas, timestamp: number): string[] {
  const line = (dimensions: string[], metrics: [string, string][], values: Record<string, string | number>) =>
    JSON.stringify({
      _aws: {
        Timestamp: timestamp,
        CloudWatchMetrics: [
          { Namespace: NAMESPACE, Dimensions: [dimensions], Metrics: metrics.map(([Name, Unit]) => ({ Name, Unit })) },
        ],
      },
      ...values,
    });
  const lines: string[] = [];
  for (const d of deltas.shards) {
    lines.push(
      line(
        ['collection', 'shard'],
        [
          ['shardline_shard_writes_total', 'Count'],
          ['shardline_shard_queries_total', 'Count'],
          ['shardline_shard_items_read_total', 'Count'],
          ['shardline_shard_throttles_total', 'Count'],
        ],
        {
          collection: d.collection,
          shard: String(d.shard),
          shardline_shard_writes_total: d.writes,
          shardline_shard_queries_total: d.queries,
          shardline_shard_items_read_total: d.itemsRead,
          shardline_shard_throttles_total: d.throttles,
        },
      ),
    );
  }
  for (const r of deltas.retries) {
    lines.push(
      line([`operation`, 'reason'], [['shardline_dynamodb_retries_total', 'Count']], {
        operation: r.operation,
        reason: r.reason,
        shardline_dynamodb_retries_total: r.count,
      }),
    );
  }
  for (const h of deltas.hedges) {
    for (const outcome of ['won', 'lost'] as const) {
      if (h[outcome] === 0) continue;
      lines.push(
        line(['collection', 'outcome'], [['shardline_shard_query_hedges_total', 'Count']], {
          collection: h.collection,
          outcome,
          shardline_shard_query_hedges_total: h[outcome],
        }),
      );
    }
  }
  for (const m of deltas.mapVersions) {
    lines.push(
      line(['collection'], [['shardline_map_version', 'None']], {
        collection: m.collection,
        shardline_map_version: m.version,
      }),
    );
  }
  const { route, method, status, seconds } = deltas.request;
  lines.push(
    line(['route', 'method', 'status'], [['shardline_http_request_duration_seconds', 'Seconds']], {
      route,
      method,
      status: String(status),
      shardline_http_request_duration_seconds: seconds,
    }),
  );
  return lines;
}
