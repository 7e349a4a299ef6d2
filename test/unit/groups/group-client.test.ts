import { describe, expect, it } from 'vitest';
import { createClient, ExactNumber, type GroupValue, ShardlineClientError } from '../../../src/client/index';

/** A fetch that records the exact URL text the client sent and answers from `answer`. */
function recording(answer: (url: string) => unknown) {
  const urls: string[] = [];
  const fetch = async (input: string | URL | Request) => {
    const url = String(input);
    urls.push(url);
    return Response.json(answer(url));
  };
  return { urls, fetch: fetch as typeof globalThis.fetch };
}

const onePage = () => ({ items: [], nextCursor: null });
const base = 'http://shardline.test/prefix';
const orders = (fetch: typeof globalThis.fetch) => createClient({ baseUrl: base, fetch }).collection('orders');

/** The group segment of a URL the client sent, as sent (still encoded). */
const segmentOf = (url: string) => url.slice(`${base}/collections/orders/groups/`.length).split(/[/?]/)[0]!;

describe('a group in the path (shardline/client)', () => {
  it('sends every group value as one encoded segment the server decodes back to the value', async () => {
    const values = ['c123', 'c#1', 'c/2', '50%', 'c 1', 'c?x=1&y', 'ß', '😀', 'a+b', '...', '#', '\uE000', ' '];
    const { urls, fetch } = recording(onePage);
    for (const value of values) await orders(fetch).group(value).pages().next();
    expect(urls).toHaveLength(values.length);
    for (const [i, url] of urls.entries()) {
      const segment = segmentOf(url);
      expect(segment, values[i]).toMatch(/^[A-Za-z0-9%._~!*'()-]+$/);
      expect(decodeURIComponent(segment)).toBe(values[i]);
      // What a server's URL parser sees: the same path, the group still one segment.
      expect(new URL(url).pathname).toBe(`/prefix/collections/orders/groups/${segment}/items`);
    }
    expect(segmentOf(urls[1]!)).toBe('c%231');
    expect(segmentOf(urls[2]!)).toBe('c%2F2');
    expect(segmentOf(urls[3]!)).toBe('50%25');
    expect(segmentOf(urls[4]!)).toBe('c%201');
    expect(segmentOf(urls[6]!)).toBe('%C3%9F');
    expect(segmentOf(urls[7]!)).toBe('%F0%9F%98%80');
  });

  it('sends a number group as its decimal text, every digit of a bigint or an ExactNumber kept', async () => {
    const cases: [GroupValue, string][] = [
      [42, '42'],
      [1.5, '1.5'],
      [-3, '-3'],
      [1e21, '1e%2B21'],
      [10n ** 20n + 1n, '100000000000000000001'],
      [new ExactNumber('12345678901234567890.50'), '12345678901234567890.50'],
    ];
    const { urls, fetch } = recording(() => ({ group: '1', shards: 1 }));
    for (const [value] of cases) await orders(fetch).group(value).info();
    expect(urls.map((url) => url.slice(`${base}/collections/orders/groups/`.length))).toEqual(
      cases.map(([, segment]) => segment),
    );
  });

  it('refuses, before any request, a value no path segment can name', async () => {
    const { urls, fetch } = recording(onePage);
    for (const value of ['', '.', '..', 'a\uD800b']) {
      let error: unknown;
      try {
        orders(fetch).group(value);
      } catch (thrown) {
        error = thrown;
      }
      expect(error, JSON.stringify(value)).toBeInstanceOf(ShardlineClientError);
      expect(error).toMatchObject({ status: undefined, code: 'invalid_request', details: { group: value } });
    }
    expect(urls).toEqual([]);
  });

  it("describes the group at its own path, and lists it with the collection's query and cursors", async () => {
    const { urls, fetch } = recording((url) => {
      if (!url.includes('/items')) return { group: 'c#1', shards: 4, writeShards: 2, phase: 'growing' };
      return new URL(url).searchParams.has('cursor')
        ? { items: [{ pk: 'o3' }], nextCursor: null }
        : { items: [{ pk: 'o1' }, { pk: 'o2' }], nextCursor: 'next page' };
    });
    const group = orders(fetch).group('c#1');
    expect(group).toMatchObject({ collection: 'orders', value: 'c#1' });
    expect(await group.describe()).toEqual(await group.info());
    expect((await group.info()).phase).toBe('growing');
    expect(urls[0]).toBe(`${base}/collections/orders/groups/c%231`);

    const query = { from: '2026-01-01', to: '2026-02-01', order: 'desc', fields: 'orderDate' } as const;
    const pks: unknown[] = [];
    for await (const order of group.list(query, { pageSize: 2 })) pks.push(order.pk);
    expect(pks).toEqual(['o1', 'o2', 'o3']);
    const [first, second] = urls.slice(3).map((url) => new URL(url));
    expect(first!.pathname).toBe('/prefix/collections/orders/groups/c%231/items');
    expect(Object.fromEntries(first!.searchParams)).toEqual({ ...query, limit: '2' });
    expect(Object.fromEntries(second!.searchParams)).toEqual({ ...query, limit: '2', cursor: 'next page' });
  });
});
