import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildLambdaOnce, type LambdaRuntime, loadLambdaRuntime } from '../runtimes/support/runtimes';
import { skewedItems, writesPerShard } from './skewed-load';

/**
 * The built Lambda bundle writes its metrics as CloudWatch Embedded Metric Format lines on
 * stdout, next to its request log: per shard the writes it made, and each request's latency.
 */
describe('the Lambda bundle’s CloudWatch EMF lines', () => {
  let lambda: LambdaRuntime;
  const printed: string[] = [];

  beforeAll(async () => {
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
    lambda = await loadLambdaRuntime(await buildLambdaOnce(), {
      DYNAMODB_ENDPOINT: inject('engines').dynamodbLocal,
      AWS_REGION: 'us-east-1',
      TABLE_NAME: `t-${randomUUID()}`,
      SHARDLINE_CREATE_TABLE: 'true',
      SHARDLINE_METRICS: 'true',
      LOG_LEVEL: 'info',
    });
  });
  afterAll(() => vi.restoreAllMocks());

  it('reports every write on its shard and the request under its route pattern', async () => {
    const items = skewedItems(0, 300);
    const answer = await lambda.request('/collections/albums-hash/items/batch', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'emf-check-1' },
      body: JSON.stringify({ items }),
    });
    expect(answer.status).toBe(200);
    const lines = printed.map((line) => JSON.parse(line) as Record<string, unknown>);
    const metricLines = lines.filter((line) => '_aws' in line);
    const writes = new Array<number>(21).fill(0);
    for (const line of metricLines) {
      if (line.collection === 'albums-hash' && typeof line.shardline_shard_writes_total === 'number') {
        writes[Number(line.shard)]! += line.shardline_shard_writes_total;
      }
    }
    expect(writes).toEqual(writesPerShard(items));
    expect(metricLines).toContainEqual(
      expect.objectContaining({
        route: '/collections/:collection/items/batch',
        method: 'POST',
        status: '200',
        shardline_http_request_duration_seconds: expect.any(Number),
      }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', requestId: 'emf-check-1', status: 200 }));
  });
});
