import { describe, expect, it } from 'vitest';
import { dataPoints, analyticsEngineRecorder } from '../../../src/runtime/worker/analytics-engine';
import { emfRecorder } from '../../../src/runtime/lambda/emf-metrics';

const REQUEST = { route: '/collections/:collection/items', method: 'GET', status: 200, seconds: 0.012 };

describe('push metrics: CloudWatch EMF lines and Analytics Engine points', () => {
  it('writes one EMF line per shard touched, per retry kind, per map change and per request', () => {
    const lines: string[] = [];
    const recorder = emfRecorder(
      (line) => lines.push(line),
      () => 1700000000000,
    );
    recorder.shardWritten('albums', 3);
    recorder.shardWritten('albums', 3);
    recorder.shardQueried('albums', 5, 40);
    recorder.shardThrottled('albums', 5);
    recorder.retried('query', 'throttled');
    recorder.hedged('albums', true);
    recorder.mapVersion('albums', 4);
    recorder.requestDone(REQUEST);
    const parsed = lines.map((line) => JSON.parse(line)).filter((entry) => !('outcome' in entry));
    const hedges = lines.map((line) => JSON.parse(line)).filter((entry) => 'outcome' in entry);
    expect(hedges).toEqual([
      expect.objectContaining({ collection: 'albums', outcome: 'won', shardline_shard_query_hedges_total: 1 }),
    ]);
    expect(parsed).toHaveLength(5);
    for (const entry of parsed) {
      const [directive] = entry._aws.CloudWatchMetrics;
      expect(entry._aws.Timestamp).toBe(1700000000000);
      expect(directive.Namespace).toBe('shardline');
      // Every dimension and metric named in the directive is a member of the line.
      for (const name of directive.Dimensions[0]) expect(typeof entry[name]).toBe('string');
      for (const { Name } of directive.Metrics) expect(typeof entry[Name]).toBe('number');
    }
    expect(parsed[0]).toMatchObject({ collection: 'albums', shard: '3', shardline_shard_writes_total: 2 });
    expect(parsed[1]).toMatchObject({
      shard: '5',
      shardline_shard_queries_total: 1,
      shardline_shard_items_read_total: 40,
      shardline_shard_throttles_total: 1,
    });
    expect(parsed[2]).toMatchObject({ operation: 'query', reason: 'throttled', shardline_dynamodb_retries_total: 1 });
    expect(parsed[3]).toMatchObject({ collection: 'albums', shardline_map_version: 4 });
    expect(parsed[4]).toMatchObject({ route: REQUEST.route, status: '200' });
    expect(parsed[4].shardline_http_request_duration_seconds).toBe(0.012);

    // The next request carries only its own figures; an unchanged map version is no news.
    lines.length = 0;
    recorder.mapVersion('albums', 4);
    recorder.requestDone({ ...REQUEST, status: 404 });
    expect(lines.map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ status: '404' })]);
  });

  it('writes Analytics Engine points, and a failing dataset never fails the request', () => {
    const points: unknown[] = [];
    const recorder = analyticsEngineRecorder({ writeDataPoint: (point) => void points.push(point) });
    recorder.shardWritten('albums', 1);
    recorder.requestDone(REQUEST);
    expect(points).toEqual([
      { blobs: ['shard', 'albums', '1'], doubles: [1, 0, 0, 0], indexes: ['albums'] },
      { blobs: ['request', REQUEST.route, 'GET', '200'], doubles: [0.012], indexes: [REQUEST.route] },
    ]);
    const broken = analyticsEngineRecorder({
      writeDataPoint: () => {
        throw new Error('over the limit');
      },
    });
    expect(() => broken.requestDone(REQUEST)).not.toThrow();
    expect(dataPoints({ shards: [], retries: [], hedges: [], mapVersions: [], request: REQUEST })).toHaveLength(1);
  });
});
