/* eslint-disable @typescript-eslint/no-explicit-any -- test assertions read arbitrary JSON */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startDynamoProxy, type DynamoProxy } from '../support/dynamo-proxy';
import { get, post, put } from '../support/http';
import { startTestService } from '../support/service';
import { scanTable } from './table';

type App = Awaited<ReturnType<typeof startTestService>>['app'];
const DATA_PLANE = new Set(['Query', 'BatchWriteItem', 'PutItem', 'GetItem', 'DeleteItem', 'DescribeTable']);

async function timed<T>(run: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await run();
  return { answer, ms: performance.now() - started };
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
      env: { DYNAMODB_ENDPOINT: proxy.endpoint, TABLE_NAME: table, REQUEST_TIMEOUT_MS: '1000' },
    }));
    slow = true;
  });
  afterAll(async () => proxy?.close());

  it('answers a listing 504 within 2.5 s and cancels the shard queries in flight', async () => {
    const callsBefore = proxy.calls.length;
    const cancelledBefore = proxy.cancelled;
    const { answer, ms } = await timed(() => get(app, '/collections/albums-hash/items?limit=100'));
    expect(answer.status).toBe(504);
    expect(answer.body).toEqual({
      error: { code: 'timeout', message: expect.any(String), requestId: answer.headers.get('x-request-id') },
    });
    console.log(`listing answered ${answer.status} after ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(2500);
    const started = proxy.calls.length - callsBefore;
    expect(started).toBe(21); // one query per shard, all in parallel
    // The proxy sees every one of them abandoned by the client before it answered.
    await new Promise((r) => setTimeout(r, 300));
    expect(proxy.cancelled - cancelledBefore).toBe(started);
    // And nothing more is sent once the deadline has passed.
    await new Promise((r) => setTimeout(r, 3000));
    expect(proxy.calls.length - callsBefore).toBe(started);
  });

  it('answers a single write and a read 504 within 2.5 s', async () => {
    const write = await timed(() => put(app, '/collections/albums/items', { pk: 'late', sk: 's', title: 'Late' }));
    expect(write.answer.status).toBe(504);
    expect(write.ms).toBeLessThan(2500);
    const read = await timed(() => get(app, '/collections/albums/item?pk=p1&sk=s'));
    expect(read.answer.status).toBe(504);
    expect(read.ms).toBeLessThan(2500);
    const health = await timed(() => get(app, '/healthz'));
    expect([503, 504]).toContain(health.answer.status);
    expect(health.ms).toBeLessThan(2500);
  });

  it('reports every batch item as timed out within 2.5 s, none as written', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ pk: `late${i}`, sk: 's', title: `late ${i}` }));
    const { answer, ms } = await timed(() => post(app, '/collections/albums/items/batch', { items }));
    expect(ms).toBeLessThan(2500);
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
    await new Promise((r) => setTimeout(r, 3200));
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
      operation === 'Query' || operation === 'BatchWriteItem' ? 'fail' : undefined,
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
      { index: 0, error: { code: 'unavailable', message: expect.stringContaining('kept failing') } },
      { index: 1, error: { code: 'unavailable', message: expect.stringContaining('kept failing') } },
    ]);
    expect(await scanTable('dynamodbLocal', table)).toEqual([]);
  });
});
