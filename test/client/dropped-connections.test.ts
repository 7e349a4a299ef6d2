import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Item, ShardlineClientError } from '../../src/client/index';
import { get, put } from '../support/http';
import { ENGINES, startTestService } from '../support/service';

interface Answered {
  method: string;
  status: number;
  dropped: boolean;
}

/**
 * A fetch that sends each request to the server for real, but throws away the answer of the
 * first request of one method, as a connection that drops after the server answered: the
 * change is made and the client never hears of it. `meanwhile` runs between the drop and
 * the client's repeat (another writer). Every answer the server gave is recorded.
 */
function droppingFirst(method: string, meanwhile: () => Promise<unknown> = async () => undefined) {
  const answered: Answered[] = [];
  let dropped = false;
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await globalThis.fetch(input, init);
    const drop = !dropped && init?.method === method;
    answered.push({ method: init?.method ?? 'GET', status: response.status, dropped: drop });
    if (!drop) return response;
    dropped = true;
    await response.arrayBuffer();
    await meanwhile();
    throw new TypeError('fetch failed', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
  };
  return { answered, fetch: fetch as typeof globalThis.fetch };
}

describe.each(ENGINES)('the client after a connection dropped once the server answered (%s)', (engine) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let server: ServerType;
  let baseUrl: string;
  const path = (key: { pk: string; sk: string }) => `/collections/albums/item?pk=${key.pk}&sk=${key.sk}`;

  beforeAll(async () => {
    service = await startTestService(engine);
    server = serve({ port: 0, hostname: '127.0.0.1', fetch: service.app.fetch });
    await new Promise<void>((listening) => server.once('listening', () => listening()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server?.close());

  const albums = (fetch: typeof globalThis.fetch) => createClient({ baseUrl, fetch }).collection('albums');
  const statuses = (answered: Answered[], method: string) =>
    answered.filter((a) => a.method === method).map((a) => a.status);

  it('reports a create-only put as written when the repeat meets the item it wrote (412)', async () => {
    const item = { pk: `put-${engine}`, sk: 'album', title: 'Created Once', year: 2006, price: 1.5 };
    const { answered, fetch } = droppingFirst('PUT');
    const written = await albums(fetch).put(item, { ifNoneMatch: '*' });
    expect(statuses(answered, 'PUT')).toEqual([201, 412]);
    expect(written.value.item).toEqual(item);
    expect(typeof written.value.shard).toBe('number');
    const stored = await get(service.app, path(item));
    expect(written.etag).toBe(stored.headers.get('etag'));

    // With If-Match too: the repeat's 412 is its own first attempt's new ETag.
    const changed = { ...item, title: 'Changed Once' };
    const again = droppingFirst('PUT');
    const rewritten = await albums(again.fetch).put(changed, { ifMatch: written.etag! });
    expect(statuses(again.answered, 'PUT')).toEqual([201, 412]);
    expect(rewritten.value.item).toEqual(changed);
  });

  it('says the outcome is unknown when another writer changed the item before the repeat', async () => {
    const item = { pk: `raced-${engine}`, sk: 'album', title: 'Mine' };
    const theirs = { ...item, title: 'Theirs' };
    const { answered, fetch } = droppingFirst('PUT', () => put(service.app, '/collections/albums/items', theirs));
    const error = await albums(fetch)
      .put(item, { ifNoneMatch: '*' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShardlineClientError);
    expect(error).toMatchObject({ code: 'outcome_unknown', status: undefined });
    expect((error as ShardlineClientError).requestId).toEqual(expect.any(String));
    expect(statuses(answered, 'PUT')).toEqual([201, 412]);

    // Without a drop, a refused create-only put is still the 412 it is.
    const plain = createClient({ baseUrl }).collection('albums');
    await expect(plain.put(item, { ifNoneMatch: '*' })).rejects.toMatchObject({ status: 412 });
  });

  it('reports a conditional patch as made when the item holds it (412 on the repeat)', async () => {
    const item = { pk: `patch-${engine}`, sk: 'album', title: 'Patched', label: 'old', tags: { genre: 'rock' } };
    const written = await createClient({ baseUrl }).collection('albums').put(item);
    const { answered, fetch } = droppingFirst('PATCH');
    const patch: Item = { year: 2006, label: null, tags: { mood: 'calm' } };
    const patched = await albums(fetch).patch({ pk: item.pk, sk: item.sk }, patch, { ifMatch: written.etag! });
    expect(statuses(answered, 'PATCH')).toEqual([200, 412, 200]); // the patch, its repeat, the read
    const expected = { pk: item.pk, sk: 'album', title: 'Patched', year: 2006, tags: { genre: 'rock', mood: 'calm' } };
    expect(patched.value).toEqual(expected);
    const stored = await get(service.app, path(item));
    expect(stored.body.item).toEqual(expected);
    expect(patched.etag).toBe(stored.headers.get('etag'));
  });

  it('reports a delete as done when the repeat finds the item gone (404, or 412 with If-Match)', async () => {
    const client = createClient({ baseUrl }).collection('albums');
    const plain = { pk: `delete-${engine}`, sk: 'album' };
    const matched = { pk: `delete-if-${engine}`, sk: 'album' };
    await client.put({ ...plain, title: 'Deleted' });
    const { etag } = await client.put({ ...matched, title: 'Deleted If' });

    const first = droppingFirst('DELETE');
    await expect(albums(first.fetch).delete(plain)).resolves.toBeUndefined();
    expect(statuses(first.answered, 'DELETE')).toEqual([204, 404]);
    expect((await get(service.app, path(plain))).status).toBe(404);

    const second = droppingFirst('DELETE');
    await expect(albums(second.fetch).delete(matched, { ifMatch: etag! })).resolves.toBeUndefined();
    expect(statuses(second.answered, 'DELETE')).toEqual([204, 412]);
    expect((await get(service.app, path(matched))).status).toBe(404);
  });

  it('counts the keys a batch delete removed before its connection dropped as deleted', async () => {
    const keys = [0, 1, 2].map((i) => ({ pk: `batch-${engine}-${i}`, sk: 'album' }));
    const client = createClient({ baseUrl }).collection('albums');
    await client.batchPut(keys.map((key, i) => ({ ...key, title: `Batch ${i}` })));
    const missing = { pk: `batch-${engine}-never`, sk: 'album' };
    const { answered, fetch } = droppingFirst('POST');
    const result = await albums(fetch).batchDelete([...keys, missing]);
    expect(statuses(answered, 'POST')).toEqual([200, 200]);
    expect(result).toEqual({ deleted: 4, failed: [] });
    for (const key of keys) expect((await get(service.app, path(key))).status).toBe(404);

    // Without a drop, a key that is not there is reported, as the service reports it.
    const plain = await client.batchDelete([missing]);
    expect(plain).toMatchObject({ deleted: 0, failed: [{ index: 0, error: { code: 'item_not_found' } }] });
  });
});
