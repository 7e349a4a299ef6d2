import { describe, expect, it } from 'vitest';
import { createClient, ExactNumber, ShardlineClientError } from '../../../src/client/index';

interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string | undefined;
  at: number;
}

/** A fetch that answers from a script and records what it was sent: the client's only door. */
function scripted(answer: (seen: Seen, n: number) => Response) {
  const seen: Seen[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request: Seen = {
      method: init?.method ?? 'GET',
      url: String(input),
      headers: new Headers(init?.headers),
      body: init?.body as string | undefined,
      at: Date.now(),
    };
    seen.push(request);
    return answer(request, seen.length - 1);
  };
  return { seen, fetch: fetch as typeof globalThis.fetch };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
const overloaded = (retryAfter?: string) =>
  json(
    { error: { code: 'overloaded', message: 'busy', requestId: 'r' } },
    503,
    retryAfter ? { 'retry-after': retryAfter } : {},
  );

describe('shardline/client', () => {
  it('follows cursors to the end, with the filters, order and fields it was given', async () => {
    const { seen, fetch } = scripted((request) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      return cursor === null
        ? json({ items: [{ pk: 'a' }, { pk: 'b' }], nextCursor: 'c1' })
        : json({ items: [{ pk: 'c' }], nextCursor: null });
    });
    const albums = createClient({ baseUrl: 'http://shardline.test/', apiKey: 'k1', fetch }).collection('albums');
    const pks: unknown[] = [];
    for await (const item of albums.list({ prefix: 'b', order: 'desc', fields: 'title' }, { pageSize: 2 })) {
      pks.push(item.pk);
    }
    expect(pks).toEqual(['a', 'b', 'c']);
    const first = new URL(seen[0]!.url);
    expect(first.pathname).toBe('/collections/albums/items');
    expect(Object.fromEntries(first.searchParams)).toEqual({ prefix: 'b', order: 'desc', fields: 'title', limit: '2' });
    expect(new URL(seen[1]!.url).searchParams.get('cursor')).toBe('c1');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer k1');
  });

  it('waits what Retry-After says on 429 and 503, then answers; gives up past its budget with the error', async () => {
    const { seen, fetch } = scripted((_, n) =>
      n < 2 ? overloaded(n === 0 ? '1' : '0') : json({ items: [], nextCursor: null }),
    );
    const albums = createClient({ baseUrl: 'http://shardline.test', fetch }).collection('albums');
    const pages = [];
    for await (const page of albums.pages()) pages.push(page);
    expect(pages).toHaveLength(1);
    expect(seen).toHaveLength(3);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(990);

    const always = scripted(() => overloaded('1'));
    const hurried = createClient({ baseUrl: 'http://shardline.test', fetch: always.fetch, retryBudgetMs: 500 });
    const error = await hurried
      .collection('albums')
      .route('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShardlineClientError);
    expect(error).toMatchObject({ status: 503, code: 'overloaded', requestId: 'r' });
    expect(always.seen).toHaveLength(1); // a 1 s wait does not fit a 0.5 s budget
  });

  it('splits a batch past 1,000 items and reports every failed item by its own index', async () => {
    const { seen, fetch } = scripted((request, n) => {
      const { items } = JSON.parse(request.body!) as { items: unknown[] };
      if (n === 1) return json({ error: { code: 'invalid_request', message: 'no', requestId: 'r' } }, 400);
      return json({ written: items.length - 1, failed: [{ index: 0, error: { code: 'conflict', message: 'other' } }] });
    });
    const items = Array.from({ length: 2500 }, (_, i) => ({ pk: `p${i}`, sk: 'x', title: `t${i}` }));
    const result = await createClient({ baseUrl: 'http://s', fetch }).collection('albums').batchPut(items);
    expect(seen.map((s) => (JSON.parse(s.body!) as { items: unknown[] }).items.length)).toEqual([1000, 1000, 500]);
    expect(result.written).toBe(999 + 499);
    const failed = result.failed.map((f) => f.index);
    expect(failed).toEqual([0, ...Array.from({ length: 1000 }, (_, i) => 1000 + i), 2000]);
    expect(result.failed[1]!.error.code).toBe('invalid_request');
  });

  it('keeps numbers a double would change, both ways, in lossless mode', async () => {
    const text =
      '{"item":{"pk":"a","big":12345678901234567890,"small":1.5,"exp":1E+2,"long":0.1000000000000000055511}}';
    const { seen, fetch } = scripted(() => json(text));
    const albums = createClient({ baseUrl: 'http://s', fetch, lossless: true }).collection('albums');
    const got = await albums.get({ pk: 'a', sk: 'b' });
    expect(got!.value.big).toEqual(new ExactNumber('12345678901234567890'));
    expect(got!.value.small).toBe(1.5);
    expect(got!.value.exp).toBe(100);
    expect(got!.value.long).toEqual(new ExactNumber('0.1000000000000000055511'));
    await albums.put({ pk: 'a', sk: 'b', big: got!.value.big, huge: 10n ** 30n, name: '\u0000x' });
    expect(seen[1]!.body).toBe(
      '{"pk":"a","sk":"b","big":12345678901234567890,"huge":1000000000000000000000000000000,"name":"\\u0000x"}',
    );

    const plain = createClient({ baseUrl: 'http://s', fetch: scripted(() => json(text)).fetch }).collection('albums');
    expect((await plain.get({ pk: 'a', sk: 'b' }))!.value.big).toBe(12345678901234567000);
  });

  it('answers a missing item as undefined, an unknown collection as an error, and sends conditions', async () => {
    const { seen, fetch } = scripted((request) => {
      if (request.url.includes('/collections/nope/')) {
        return json({ error: { code: 'collection_not_found', message: 'no', requestId: 'r' } }, 404);
      }
      if (request.method === 'GET')
        return json({ error: { code: 'item_not_found', message: 'no', requestId: 'r' } }, 404);
      return new Response(null, { status: 204 });
    });
    const client = createClient({ baseUrl: 'http://s', fetch });
    expect(await client.collection('albums').get({ pk: 'a', sk: 'b' })).toBeUndefined();
    await expect(client.collection('nope').get({ pk: 'a' })).rejects.toMatchObject({ code: 'collection_not_found' });
    await client.collection('albums').delete({ pk: 'a', sk: 'b' }, { ifMatch: '"e1"' });
    expect(seen[2]!.headers.get('if-match')).toBe('"e1"');
    expect(new URL(seen[2]!.url).search).toBe('?pk=a&sk=b');
  });

  it('after a dropped connection, takes the item there as its own when held equal; a 404 is unknown', async () => {
    const stored =
      '{"shard":1,"shardKey":"k","item":{"pk":"a","sk":"b","n":1.50,"tags":{"$set":["y","x"]},"m":{"q":1,"p":2}}}';
    const { seen, fetch } = scripted((request, n) => {
      if (n === 0) throw new TypeError('fetch failed');
      if (request.url.endsWith('/collections/albums')) return json({ primaryKey: [{ name: 'pk' }, { name: 'sk' }] });
      if (request.method === 'PATCH' && request.body === '{}') return json(stored, 200, { etag: '"e2"' });
      const refusal = request.method === 'PUT' ? 412 : 404;
      return json(
        { error: { code: refusal === 412 ? 'precondition_failed' : 'item_not_found', message: 'no' } },
        refusal,
      );
    });
    const albums = createClient({ baseUrl: 'http://s', fetch }).collection('albums');
    const item = { pk: 'a', sk: 'b', n: 1.5, tags: { $set: ['x', 'y'] }, m: { p: 2, q: 1 } };
    const written = await albums.put(item, { ifNoneMatch: '*' });
    expect(written).toMatchObject({ etag: '"e2"', value: { shard: 1 } });
    expect(seen.map((s) => s.method)).toEqual(['PUT', 'PUT', 'GET', 'PATCH']);

    const other = scripted((_, n) => {
      if (n === 0) throw new TypeError('fetch failed');
      return json({ error: { code: 'item_not_found', message: 'no', requestId: 'r2' } }, 404);
    });
    const patching = createClient({ baseUrl: 'http://s', fetch: other.fetch }).collection('albums');
    const error = await patching.patch({ pk: 'a', sk: 'b' }, { n: 2 }, { ifMatch: '"e1"' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'outcome_unknown', status: undefined, requestId: 'r2' });
    expect((error as ShardlineClientError).details.refusal).toEqual({ status: 404, code: 'item_not_found' });
  });
});
