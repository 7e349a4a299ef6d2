/* eslint-disable @typescript-eslint/no-explicit-any -- test assertions read arbitrary JSON */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startDynamoProxy, type DynamoProxy } from '../support/dynamo-proxy';
import { get, post, put } from '../support/http';
import { startTestService } from '../support/service';
import { scanTable } from './table';

type App = Awaited<ReturnType<typeof startTestService>>['app'];
const DATA_PLANE = new Set(['Query', 'BatchWriteItem', 'PutItem', 'GetItem', 'DeleteItem', 'DescribeTable']);

/** What a proxy has seen since the call: DynamoDB calls sent, answered, and abandoned by the client. */
function countsSince(proxy: DynamoProxy): () => { calls: number; answered: number; cancelled: number } {
  const [calls, answered, cancelled] = [proxy.calls.length, proxy.answered, proxy.cancelled];
  return () => ({
    calls: proxy.calls.length - calls,
    answered: proxy.answered - answered,
    cancelled: proxy.cancelled - cancelled,
  });
}

describe('deadlines: DynamoDB answering in 3 s, REQUEST_TIMEOUT_MS=1000', () => {
  let proxy: DynamoProxy;
  let app: App;
  let table: string;
  let slow = false;

  beforeAll(async () => {
    proxy = await startDynamoProxy(inject('engines').dynamodbLocal, (call) =>
      slow && DATA_PLANE.has(call.operation) ? { kind: 'forward', delayMs: 3000 } : { kind: 'forward' },
    );
    // Data goes in without a tight deadline (DynamoDB Local writes a few hundred items a second).
    const loader = await startTestService('dynamodbLocal');
    table = loader.table;
    const items = Array.from({ length: 200 }, (_, i) => ({ pk: `p${i}`, sk: 's', title: `title ${i}` }));
    expect((await post(loader.app, '/collections/albums-hash/items/batch', { items })).body).toEqual({
      written: 200,
      failed: [],
    });
    ({ app } = await startTestService('dynamodbLocal', {
      // The shard maps do not change here: read once at start, never during the slow calls counted below.
      env: {
        DYNAMODB_ENDPOINT: proxy.endpoint,
        TABLE_NAME: table,
        REQUEST_TIMEOUT_MS: '1000',
        SHARDLINE_MAP_TTL_MS: '3600000',
      },
    }));
    slow = true;
  });
  afterAll(async () => proxy?.close());

  it('answers a listing 504 before DynamoDB answers and cancels the shard queries in flight', async () => {
    const since = countsSince(proxy);
    const answer = await get(app, '/collections/albums-hash/items?limit=100');
    expect(answer.status).toBe(504);
    expect(answer.body).toEqual({
      error: { code: 'timeout', message: expect.any(String), requestId: answer.headers.get('x-request-id') },
    });
    // Not one query answered yet: the 504 came from the deadline, not from DynamoDB's 3 s.
    expect(since()).toMatchObject({ calls: 21, answered: 0 }); // one query per shard, all in parallel
    // By the time the engine would have answered them, the proxy has seen every one abandoned
    // by the client, and nothing more was sent once the deadline had passed.
    await proxy.idle();
    expect(since()).toEqual({ calls: 21, answered: 0, cancelled: 21 });
  });

  it('answers a single write, a read and the health check before DynamoDB does, cutting their calls off', async () => {
    const since = countsSince(proxy);
    const write = await put(app, '/collections/albums/items', { pk: 'late', sk: 's', title: 'Late' });
    expect(write.status).toBe(504);
    expect(since().answered).toBe(0);
    const read = await get(app, '/collections/albums/item?pk=p1&sk=s');
    expect(read.status).toBe(504);
    expect(since().answered).toBe(0);
    const health = await get(app, '/healthz');
    expect([503, 504]).toContain(health.status);
    expect(since().answered).toBe(0);
    await proxy.idle();
    const { calls, answered, cancelled } = since();
    expect(calls).toBeGreaterThanOrEqual(3);
    expect({ answered, cancelled }).toEqual({ answered: 0, cancelled: calls });
  });

  it('reports every batch item as timed out before DynamoDB answers, none as written', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ pk: `late${i}`, sk: 's', title: `late ${i}` }));
    const since = countsSince(proxy);
    const answer = await post(app, '/collections/albums/items/batch', { items });
    expect(since().answered).toBe(0);
    expect(answer.status).toBe(200);
    expect(answer.body.written).toBe(0);
    expect(answer.body.failed.map((f: any) => f.index)).toEqual(items.map((_, i) => i));
    for (const failure of answer.body.failed) {
      // The calls were cut off in flight: the engine may still do them, and the client is told so.
      expect(failure.error).toEqual({
        code: 'timeout',
        message: expect.stringContaining('may or may not have been written'),
      });
    }
    // The proxy forwards abandoned calls after its 3 s, as a network may: the items land
    // later, matching what the client was told ("may or may not"), and nothing else does.
    await proxy.idle();
    expect(since()).toMatchObject({ answered: 0, cancelled: since().calls });
    const rows = await scanTable('dynamodbLocal', table);
    const late = rows.map((row) => String(row.pk)).filter((pk) => /^late\d+$/.test(pk));
    expect(late.every((pk) => Number(pk.slice(4)) < items.length)).toBe(true);
  });
});

describe('retries running out', () => {
  const proxies: DynamoProxy[] = [];
  afterAll(async () => Promise.all(proxies.map((proxy) => proxy.close())));

  async function serviceWith(
    fault: (operation: string, body: string) => 'throttle' | 'fail' | undefined,
    env: Record<string, string> = {},
  ) {
    let active = false;
    const proxy = await startDynamoProxy(inject('engines').dynamodbLocal, (call) => {
      const kind = active ? fault(call.operation, JSON.stringify(call.body)) : undefined;
      if (kind === 'throttle') {
        return {
          kind: 'respond',
          status: 400,
          body: { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'hot' },
        };
      }
      if (kind === 'fail') return { kind: 'drop' };
      return { kind: 'forward' };
    });
    proxies.push(proxy);
    const service = await startTestService('dynamodbLocal', { env: { DYNAMODB_ENDPOINT: proxy.endpoint, ...env } });
    active = true;
    return { ...service, proxy };
  }

  it('answers 503 with Retry-After and reason "throttled" when a hot key stays throttled', async () => {
    const { app } = await serviceWith((operation, body) =>
      operation === 'PutItem' && body.includes('hot-key') ? 'throttle' : undefined,
    );
    const answer = await put(app, '/collections/albums/items', { pk: 'hot-key', sk: 's', title: 'Hot' });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.body.error).toMatchObject({ code: 'unavailable', reason: 'throttled' });
    // Other keys are unaffected.
    expect((await put(app, '/collections/albums/items', { pk: 'cold', sk: 's', title: 'Cold' })).status).toBe(201);
  });

  it('answers 503 reason "failed" when connections keep dropping, and a batch reports each item', async () => {
    const { app, table } = await serviceWith((operation) =>
      operation === 'Query' || operation === 'PutItem' ? 'fail' : undefined,
    );
    const listing = await get(app, '/collections/albums-random/items');
    expect(listing.status).toBe(503);
    expect(listing.body.error).toMatchObject({ code: 'unavailable', reason: 'failed' });
    expect(listing.body.items).toBeUndefined();
    const batch = await post(app, '/collections/albums/items/batch', {
      items: [
        { pk: 'a', sk: 's', title: 'A' },
        { pk: 'b', sk: 's', title: 'B' },
      ],
    });
    expect(batch.status).toBe(200);
    expect(batch.body.written).toBe(0);
    expect(batch.body.failed).toEqual([
      { index: 0, error: { code: 'unavailable', message: expect.stringContaining('after retries') } },
      { index: 1, error: { code: 'unavailable', message: expect.stringContaining('after retries') } },
    ]);
    expect(await scanTable('dynamodbLocal', table)).toEqual([]);
  });
});
