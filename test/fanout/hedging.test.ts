import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { prometheusExporter } from '../../src/runtime/node/prometheus';
import type { Service } from '../../src/runtime/service';
import { startDynamoProxy, type DynamoProxy, type ProxiedCall, type ProxyAction } from '../support/dynamo-proxy';
import { get, post } from '../support/http';
import { startTestService } from '../support/service';

const COLLECTION = 'albums-hash';
const SLOW_SHARD = `${COLLECTION}#0`;

/**
 * Hedged shard queries on DynamoDB Local: once the collection has a latency history, one
 * shard's Query held by a proxy for 5 s is sent again at the p95, the second answer is
 * taken, the held one is drained (left to answer, its connection kept, its answer dropped),
 * and the page is the page an unhedged listing gives, counted once.
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

  it('takes the hedge, drains the held query and returns the exact page, counted once', async () => {
    const page = `/collections/${COLLECTION}/items?limit=50`;
    let hedgesSent = 0;
    const list = async () => {
      const answer = await get(service.app, page);
      expect(answer.status).toBe(200);
      hedgesSent += Number(answer.headers.get('x-shard-hedges'));
      return answer;
    };
    // A history: 21 queries a page, past the policy's 32 samples. (On a loaded machine a query past
    // the p95 may be hedged here too: within the budget, and counted the same way.)
    for (let i = 0; i < 3; i++) await list();
    const plain = await list();

    await proxy.idle();
    const cancelledBefore = proxy.cancelled;
    armed = true;
    const hedged = await list();
    expect(slowed).toBe(1);
    expect(Number(hedged.headers.get('x-shard-hedges'))).toBeGreaterThanOrEqual(1);
    expect(hedged.body.items).toEqual(plain.body.items);
    expect(hedged.headers.get('x-items-read')).toBe(plain.headers.get('x-items-read'));
    expect(hedged.headers.get('x-shard-queries')).toBe(plain.headers.get('x-shard-queries'));
    // The held query is not aborted (that would close its connection): it answers after its 5 s,
    // and its answer is dropped. Nor is any other hedge's loser.
    const answeredBefore = proxy.answered;
    await proxy.idle();
    expect(proxy.cancelled - cancelledBefore).toBe(0);
    expect(proxy.answered - answeredBefore).toBeGreaterThanOrEqual(1);
    // Its late answer changed nothing: the next page is the same page, counted the same.
    const after = await list();
    expect(after.body.items).toEqual(plain.body.items);
    expect(after.headers.get('x-items-read')).toBe(plain.headers.get('x-items-read'));

    const families = parsePrometheusTextFormat(await (await service.app.request('/metrics')).text());
    const hedges = families.find((f) => f.name === 'shardline_shard_query_hedges_total')!.metrics;
    const count = (outcome: string) => Number(hedges.find((m) => m.labels?.outcome === outcome)?.value ?? 0);
    expect(count('won')).toBeGreaterThanOrEqual(1);
    expect(count('won') + count('lost')).toBe(hedgesSent);
  });
});
