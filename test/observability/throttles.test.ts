import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { prometheusExporter } from '../../src/runtime/node/prometheus';
import type { Service } from '../../src/runtime/service';
import { startDynamoProxy, type DynamoProxy, type ProxiedCall, type ProxyAction } from '../support/dynamo-proxy';
import { call, get, put } from '../support/http';
import { startTestService } from '../support/service';
import { expectedShard, skewedItems } from './skewed-load';

const COLLECTION = 'albums-hash';
const THROTTLE = {
  kind: 'respond',
  status: 400,
  body: { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'injected' },
} as const;

/**
 * Throttles and retries, injected by a proxy in front of DynamoDB Local: one query of one
 * shard throttled, three of a batch's puts throttled (a batch writes each item with its own
 * conditional put) and one single put throttled. Each must count for its own shard, and
 * retries by operation and reason.
 */
describe('throttles and retries per shard, behind a throttling proxy', () => {
  let proxy: DynamoProxy;
  let service: Service;
  let armed = false;
  const done = new Set<string>();
  /** Which request the proxy is throttling puts of, and how many it has left to throttle. */
  const putsToThrottle = { batch: 3, single: 1 };
  let writing: keyof typeof putsToThrottle = 'batch';
  const throttledTitles: string[] = [];
  const logged: string[] = [];
  const hotShard = expectedShard('Greatest Hits');

  function decide(call: ProxiedCall): ProxyAction {
    if (!armed) return { kind: 'forward' };
    const values = call.body.ExpressionAttributeValues as Record<string, { S?: string }> | undefined;
    if (call.operation === 'Query' && values?.[':shard']?.S === `${COLLECTION}#${hotShard}` && !done.has('query')) {
      done.add('query');
      return THROTTLE;
    }
    if (call.operation === 'PutItem' && putsToThrottle[writing] > 0) {
      putsToThrottle[writing]--;
      done.add(writing);
      throttledTitles.push((call.body.Item as Record<string, { S: string }>).title!.S);
      return THROTTLE;
    }
    return { kind: 'forward' };
  }

  beforeAll(async () => {
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logged.push(String(line)));
    proxy = await startDynamoProxy(inject('engines').dynamodbLocal, decide);
    service = await startTestService('dynamodbLocal', {
      env: { DYNAMODB_ENDPOINT: proxy.endpoint, LOG_LEVEL: 'info' },
      metrics: prometheusExporter,
    });
    armed = true;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await proxy?.close();
  });

  it('counts each throttle on its shard and each retry by operation and reason', async () => {
    const items = skewedItems(0, 20);
    const batch = await call(service.app, 'POST', `/collections/${COLLECTION}/items/batch`, { items });
    expect(batch.body.failed).toEqual([]);
    writing = 'single';
    const single = await put(service.app, `/collections/${COLLECTION}/items`, skewedItems(100, 1)[0]);
    expect(single.status).toBe(201);
    logged.length = 0;
    const listing = await get(service.app, `/collections/${COLLECTION}/items?limit=10`);
    expect(listing.status).toBe(200);
    expect([...done].sort()).toEqual(['batch', 'query', 'single']);
    expect(throttledTitles).toHaveLength(4);
    expect(throttledTitles[3]).toBe(skewedItems(100, 1)[0]!.title);

    const expected = new Array<number>(21).fill(0);
    for (const title of throttledTitles) expected[expectedShard(title)]!++;
    expected[hotShard]!++;
    const stats = (await get(service.app, `/collections/${COLLECTION}/stats`)).body;
    expect(stats.sinceStart.shards.map((s: { throttles: number }) => s.throttles)).toEqual(expected);
    expect(stats.sinceStart.writes).toBe(21);

    const families = parsePrometheusTextFormat(await (await service.app.request('/metrics')).text());
    const retries = families.find((f) => f.name === 'shardline_dynamodb_retries_total')!.metrics;
    const count = (operation: string, reason: string) =>
      Number(retries.find((m) => m.labels?.operation === operation && m.labels.reason === reason)?.value ?? 0);
    expect(count('query', 'throttled')).toBe(1);
    expect(count('put', 'throttled')).toBe(4);

    const line = logged
      .map((text) => JSON.parse(text))
      .find((entry) => entry.route === '/collections/:collection/items');
    expect(line).toMatchObject({ method: 'GET', status: 200, retries: 1 });
  });
});
