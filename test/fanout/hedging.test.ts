import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { prometheusExporter } from '../../src/runtime/prometheus';
import type { Service } from '../../src/runtime/service';
import { startDynamoProxy, type DynamoProxy, type ProxiedCall, type ProxyAction } from '../support/dynamo-proxy';
import { get, post } from '../support/http';
import { startTestService } from '../support/service';

const COLLECTION = 'albums-hash';
const SLOW_SHARD = `${COLLECTION}#0`;

/**
 * Hedged shard queries on DynamoDB Local: once the collection has a latency history, one
 * shard's Query held by a proxy for 5 s is sent again at the p95, the second answer is
 * taken, the held one is aborted, and the page is the page an unhedged listing gives.
 */
describe('hedged shard queries behind a slow shard', () => {
  let proxy: DynamoProxy;
  let service: Service;
  let slowed = 0;
  let armed = false;

  function decide(call: ProxiedCall): ProxyAction {
    const values = call.body.ExpressionAttributeValues as Record<string, { S?: string }> | undefined;
    if (armed && call.operation === 'Query' && values?.[':shard']?.S === SLOW_SHARD && slowed === 0) {
      slowed++;
      return { kind: 'forward', delayMs: 5000 };
    }
    return { kind: 'forward' };
  }

  beforeAll(async () => {
    proxy = await startDynamoProxy(inject('engines').dynamodbLocal, decide);
    service = await startTestService('dynamodbLocal', {
      env: { DYNAMODB_ENDPOINT: proxy.endpoint },
      metrics: prometheusExporter,
    });
    const items = Array.from({ length: 300 }, (_, i) => ({
      pk: `h${i}`,
      sk: 'album',
      title: `Title ${(i * 7919) % 300}`,
    }));
    const batch = await post(service.app, `/collections/${COLLECTION}/items/batch`, { items });
    expect(batch.body.failed).toEqual([]);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('takes the hedge, aborts the held query and returns the exact page, counted once', async () => {
    const page = `/collections/${COLLECTION}/items?limit=50`;
    // A history: 21 queries a page, past the policy's 32 samples.
    for (let i = 0; i < 3; i++) expect((await get(service.app, page)).status).toBe(200);
    const plain = await get(service.app, page);
    expect(plain.headers.get('x-shard-hedges')).toBe('0');

    await proxy.idle();
    const cancelledBefore = proxy.cancelled;
    armed = true;
    const hedged = await get(service.app, page);
    expect(hedged.status).toBe(200);
    expect(slowed).toBe(1);
    expect(hedged.headers.get('x-shard-hedges')).toBe('1');
    expect(hedged.body.items).toEqual(plain.body.items);
    expect(hedged.headers.get('x-items-read')).toBe(plain.headers.get('x-items-read'));
    expect(hedged.headers.get('x-shard-queries')).toBe(plain.headers.get('x-shard-queries'));
    // The held query's client went away: the router aborted it.
    await proxy.idle();
    expect(proxy.cancelled - cancelledBefore).toBe(1);

    const families = parsePrometheusTextFormat(await (await service.app.request('/metrics')).text());
    const hedges = families.find((f) => f.name === 'shardline_shard_query_hedges_total')!.metrics;
    expect(hedges).toEqual([
      expect.objectContaining({ labels: { collection: COLLECTION, outcome: 'won' }, value: '1' }),
      expect.objectContaining({ labels: { collection: COLLECTION, outcome: 'lost' }, value: '0' }),
    ]);
  });
});
