import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { get, post } from '../support/http';
import { startDynamoProxy, type DynamoProxy } from '../support/dynamo-proxy';
import { startTestService } from '../support/service';

describe('listing through a faulty DynamoDB', () => {
  const proxies: DynamoProxy[] = [];
  afterAll(async () => Promise.all(proxies.map((proxy) => proxy.close())));

  it('fails a listing with 503 when a shard query keeps failing, never a short page', async () => {
    let failing = false;
    const proxy = await startDynamoProxy(inject('engines').dynamodbLocal, (call) =>
      failing && call.operation === 'Query' && JSON.stringify(call.body).includes('albums-hash#3')
        ? {
            kind: 'respond',
            status: 500,
            body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'injected' },
          }
        : { kind: 'forward' },
    );
    proxies.push(proxy);
    const { app } = await startTestService('dynamodbLocal', { env: { DYNAMODB_ENDPOINT: proxy.endpoint } });
    const items = Array.from({ length: 60 }, (_, i) => ({ pk: `p${i}`, sk: 's', title: `title ${i}` }));
    expect((await post(app, '/collections/albums-hash/items/batch', { items })).body).toEqual({
      written: 60,
      failed: [],
    });
    failing = true;
    const listing = await get(app, '/collections/albums-hash/items?limit=50');
    expect(listing.status).toBe(503);
    expect(listing.headers.get('retry-after')).toBeTruthy();
    expect(listing.body.error.code).toBe('unavailable');
  });
});
