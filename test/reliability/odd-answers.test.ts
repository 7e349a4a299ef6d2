/* eslint-disable @typescript-eslint/no-explicit-any -- test assertions read arbitrary JSON */
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startDynamoProxy, type DynamoProxy, type ProxyAction } from '../support/dynamo-proxy';
import { get, post, put } from '../support/http';
import { startTestService } from '../support/service';

/** Answers seen from proxies, load balancers and broken connections rather than from DynamoDB. */
const ODD: ProxyAction[] = [
  { kind: 'respond', status: 429, body: 'Too Many Requests' },
  { kind: 'respond', status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' },
  { kind: 'respond', status: 503, body: '' },
  { kind: 'respond', status: 408, body: '' },
  { kind: 'respond', status: 500, body: { __type: 'com.example#SomethingNewException', message: 'unheard of' } },
  { kind: 'respond', status: 200, body: '{"Items": [{"pk": {"S": "trunc' },
  { kind: 'respond', status: 200, body: '<html>captive portal</html>' },
];
const DATA_PLANE = new Set(['Query', 'BatchWriteItem', 'PutItem', 'GetItem']);

describe('answers DynamoDB never gives (proxies, truncation): retried, nothing lost', () => {
  let proxy: DynamoProxy;
  afterAll(async () => proxy?.close());

  it('writes, reads and lists correctly when every call first gets two odd answers', async () => {
    let on = false;
    let n = 0;
    const attempts = new Map<string, number>();
    const seen = new Map<number, number>();
    // Each distinct call gets two odd answers (kinds in rotation), then the real one.
    proxy = await startDynamoProxy(inject('engines').dynamodbLocal, (call) => {
      if (!on || !DATA_PLANE.has(call.operation)) return { kind: 'forward' };
      const key = JSON.stringify(call.body);
      const attempt = attempts.get(key) ?? 0;
      attempts.set(key, attempt + 1);
      if (attempt >= 2) return { kind: 'forward' };
      const odd = n++ % ODD.length;
      seen.set(odd, (seen.get(odd) ?? 0) + 1);
      return ODD[odd]!;
    });
    const { app } = await startTestService('dynamodbLocal', { env: { DYNAMODB_ENDPOINT: proxy.endpoint } });
    on = true;
    const items = Array.from({ length: 100 }, (_, i) => ({
      pk: `p${String(i).padStart(3, '0')}`,
      sk: 's',
      title: `title ${i}`,
    }));
    const batch = await post(app, '/collections/albums-hash/items/batch', { items });
    expect(batch.body).toEqual({ written: 100, failed: [] });
    const single = await put(app, '/collections/albums-hash/items', { pk: 'one', sk: 's', title: 'One' });
    expect(single.status, JSON.stringify(single.body)).toBe(201);
    const read = await get(app, '/collections/albums-hash/item?pk=one&sk=s');
    expect(read.body).toEqual({ item: { pk: 'one', sk: 's', title: 'One' } });
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await get(
        app,
        `/collections/albums-hash/items?limit=40${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      listed.push(...page.body.items.map((item: any) => item.pk));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(listed.sort()).toEqual([...items.map((item) => item.pk), 'one'].sort());
    // Every kind of odd answer was actually served.
    expect([...seen.keys()].sort()).toEqual(ODD.map((_, i) => i));
  });
});
