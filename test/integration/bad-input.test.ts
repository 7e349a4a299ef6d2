import { beforeAll, describe, expect, it } from 'vitest';
import { call, get, post, put } from '../support/http';
import { ENGINES, startTestService } from '../support/service';

const good = { pk: 'artist', sk: 'album#1', title: 'Leaving Home' };

/**
 * Every bad input docs/api.md names gets a 4xx with a JSON error, and the table
 * is left exactly as it was.
 */
describe.each(ENGINES)('bad input over %s', (engine) => {
  let app: Awaited<ReturnType<typeof startTestService>>['app'];
  beforeAll(async () => {
    ({ app } = await startTestService(engine));
    expect((await put(app, '/collections/albums/items', good)).status).toBe(201);
  });

  const badItems: [string, unknown, string][] = [
    ['an array', [good], 'invalid_request'],
    ['missing partition key', { sk: 's', title: 't' }, 'invalid_item'],
    ['missing sort key', { pk: 'p', title: 't' }, 'invalid_item'],
    ['empty partition key', { pk: '', sk: 's', title: 't' }, 'invalid_item'],
    ['numeric key where a string is due', { pk: 5, sk: 's', title: 't' }, 'invalid_item'],
    ['missing ordered field', { pk: 'p', sk: 's' }, 'invalid_item'],
    ['non-string ordered field', { pk: 'p', sk: 's', title: 42 }, 'invalid_item'],
    ['the separator in the value', { pk: 'p', sk: 's', title: 'a\u0000b' }, 'invalid_item'],
    ['a lone surrogate in the value', { pk: 'p', sk: 's', title: 'a\uD800b' }, 'invalid_item'],
    ['a lone surrogate in another attribute', { pk: 'p', sk: 's', title: 't', note: '\uDC00' }, 'invalid_item'],
    ['a partition key over 2048 bytes', { pk: 'é'.repeat(1025), sk: 's', title: 't' }, 'key_too_large'],
    ['a sort key over 1024 bytes', { pk: 'p', sk: 'x'.repeat(1025), title: 't' }, 'key_too_large'],
    ['a value too long to index', { pk: 'p', sk: 's', title: '🎸'.repeat(260) }, 'key_too_large'],
    ['an item over 400 KB', { pk: 'p', sk: 's', title: 't', blob: 'x'.repeat(410_000) }, 'item_too_large'],
    ['a managed attribute', { pk: 'p', sk: 's', title: 't', gsi1pk: 'albums#3' }, 'invalid_item'],
    ['a number DynamoDB cannot store', { pk: 'p', sk: 's', title: 't', n: 1e300 }, 'invalid_item'],
    ['an empty attribute name', { pk: 'p', sk: 's', title: 't', '': 1 }, 'invalid_item'],
  ];

  it.each(badItems)('refuses %s with 400 and writes nothing', async (_, item, code) => {
    const single = await put(app, '/collections/albums/items', item);
    expect(single.status).toBe(400);
    expect(single.body.error.code).toBe(code);
    const batch = await post(app, '/collections/albums/items/batch', { items: [{ ...good, sk: 'album#new' }, item] });
    expect(batch.status).toBe(400);
    await expectUnchanged();
  });

  it('refuses malformed JSON, a non-JSON body and a batch with repeated keys', async () => {
    const malformed = await call(app, 'PUT', '/collections/albums/items', '{"pk": ');
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'invalid_json']);
    const plain = await app.request('/collections/albums/items', { method: 'PUT', body: JSON.stringify(good) });
    expect(plain.status).toBe(400);
    const repeated = await post(app, '/collections/albums/items/batch', {
      items: [
        { ...good, sk: 'x' },
        { ...good, sk: 'x' },
      ],
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.invalid).toEqual([
      { index: 1, error: expect.objectContaining({ code: 'invalid_item' }) },
    ]);
    // A number or a string where an item goes is not an item: said so, not read as a keyless map.
    const notItems = await post(app, '/collections/albums/items/batch', { items: [5, 'x', [good]] });
    const notAnObject = { code: 'invalid_item', message: 'the item must be a JSON object' };
    expect(notItems.body.error.invalid).toEqual([0, 1, 2].map((index) => ({ index, error: notAnObject })));
    for (const body of [
      {},
      { items: [] },
      { items: 'x' },
      { items: Array.from({ length: 1001 }, (_, i) => ({ ...good, sk: `${i}` })) },
    ]) {
      expect((await post(app, '/collections/albums/items/batch', body)).status).toBe(400);
    }
    await expectUnchanged();
  });

  it('answers unknown collections and items with 404', async () => {
    for (const path of [
      '/collections/nope',
      '/collections/nope/items',
      '/collections/nope/route?key=a',
      '/collections/albums/item?pk=x&sk=y',
    ]) {
      const answer = await get(app, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error.code).toMatch(/not_found/);
    }
    expect((await put(app, '/collections/nope/items', good)).status).toBe(404);
    expect((await call(app, 'DELETE', '/collections/albums/item?pk=x&sk=y')).status).toBe(404);
    expect((await get(app, '/nowhere')).status).toBe(404);
  });

  const badListings = [
    'limit=0',
    'limit=1001',
    'limit=abc',
    'limit=-5',
    'limit=1.5',
    'order=up',
    'key=a&prefix=b',
    'key=a&from=b',
    'prefix=a&to=b',
    'from=b&to=a',
    'cursor=garbage',
    'cursor=eyJ2IjoxLCJrIjoiYSJ9.AAAAAAAAAAAAAAAAAAAAAA',
    `key=${encodeURIComponent('a\u0000')}`,
  ];
  it.each(badListings)('refuses listing query %s with 400', async (query) => {
    const answer = await get(app, `/collections/albums/items?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual(
      expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
    );
  });

  it('refuses a cursor issued for another filter or order', async () => {
    await post(app, '/collections/albums/items/batch', {
      items: [
        { ...good, sk: 'c1', title: 'a1' },
        { ...good, sk: 'c2', title: 'a2' },
      ],
    });
    const first = await get(app, '/collections/albums/items?prefix=a&limit=1');
    const cursor = encodeURIComponent(first.body.nextCursor);
    expect((await get(app, `/collections/albums/items?prefix=a&limit=1&cursor=${cursor}`)).status).toBe(200);
    expect((await get(app, `/collections/albums/items?prefix=b&limit=1&cursor=${cursor}`)).status).toBe(400);
    expect((await get(app, `/collections/albums/items?prefix=a&order=desc&cursor=${cursor}`)).status).toBe(400);
    expect((await get(app, `/collections/albums-hash/items?prefix=a&cursor=${cursor}`)).status).toBe(400);
    await call(app, 'DELETE', '/collections/albums/item?pk=artist&sk=c1');
    await call(app, 'DELETE', '/collections/albums/item?pk=artist&sk=c2');
  });

  async function expectUnchanged(): Promise<void> {
    const listing = await get(app, '/collections/albums/items');
    expect(listing.body.items).toEqual([good]);
  }
});
