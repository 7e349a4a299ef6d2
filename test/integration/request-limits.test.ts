import { beforeAll, describe, expect, it } from 'vitest';
import { call, get, post } from '../support/http';
import { ENGINES, startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

const good = { pk: 'artist', sk: 'album#1', title: 'Leaving Home', email: 'a@example.com' };
const key = { pk: good.pk, sk: good.sk };
const names = (count: number) => Array.from({ length: count }, (_, i) => `field${i}`);
const itemPath = (query: string) => `/collections/albums/item?${query}`;

/** Every `message` in an error body: its own, and a batch entry's. */
function messagesIn(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, inner]) =>
    name === 'message' && typeof inner === 'string' ? [inner] : messagesIn(inner),
  );
}

/**
 * Every input past a DynamoDB limit (key sizes, the projection's) is a 400 naming the limit before
 * any call, never DynamoDB's own refusal as a 500; and a huge `fields` costs milliseconds, not the
 * event loop (7,000 names took 18 s when each name was looked up among all the names before it).
 */
describe.each(ENGINES)('inputs past DynamoDB limits over %s', (engine) => {
  let app: App;
  beforeAll(async () => {
    ({ app } = await startTestService(engine));
    expect((await call(app, 'PUT', '/collections/albums/items', good)).status).toBe(201);
  });

  it('refuses a batch-get naming 7,000 fields (62 KB) at once, naming the limit', async () => {
    const fields = names(7000);
    expect(JSON.stringify(fields).length).toBeGreaterThan(62_000);
    const started = performance.now();
    const answer = await post(app, '/collections/albums/items/batch-get', { keys: [key], fields });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'invalid_request',
      message: 'fields names 7000 attributes; at most 100',
      parameter: 'fields',
      limit: 100,
    });
  });

  it('takes 100 fields on every read, and refuses 101 and 600', async () => {
    const reads = (fields: string[]) => [
      get(app, itemPath(`pk=artist&sk=album%231&fields=${fields.join(',')}`)),
      get(app, `/collections/albums/items?fields=${fields.join(',')}`),
      post(app, '/collections/albums/items/batch-get', { keys: [key], fields }),
      post(app, `/collections/albums/items/batch-get?fields=${fields.join(',')}`, { keys: [key] }),
    ];
    for (const answer of await Promise.all(reads([...names(99), 'title']))) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(JSON.stringify(answer.body)).toContain('"title":"Leaving Home"');
    }
    for (const count of [101, 600, 1000]) {
      for (const answer of await Promise.all(reads(names(count)))) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(400);
        expect(answer.body.error).toMatchObject({ parameter: 'fields', limit: 100 });
      }
    }
  });

  it('refuses fields over 16 KiB of names', async () => {
    const answer = await post(app, '/collections/albums/items/batch-get', {
      keys: [key],
      fields: ['x'.repeat(16 * 1024), 'y'],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ parameter: 'fields', limit: 16 * 1024 });
    const longest = await post(app, '/collections/albums/items/batch-get', {
      keys: [key],
      fields: ['x'.repeat(16_000)],
    });
    expect(longest.status).toBe(200);
  });

  it('writes a PATCH that changes 600 attributes whole, past the 4 KB an update expression holds', async () => {
    const path = itemPath('pk=wide&sk=s');
    expect((await call(app, 'PUT', '/collections/albums/items', { pk: 'wide', sk: 's', title: 'Wide' })).status).toBe(
      201,
    );
    const wide = Object.fromEntries(names(600).map((name, i) => [name, i]));
    const patched = await call(app, 'PATCH', path, wide);
    expect(patched.status, JSON.stringify(patched.body).slice(0, 300)).toBe(200);
    expect((await get(app, path)).body.item).toEqual({ pk: 'wide', sk: 's', title: 'Wide', ...wide });
    const narrow = Object.fromEntries(names(600).map((name) => [name, null]));
    expect((await call(app, 'PATCH', path, { ...narrow, title: 'Narrow' })).status).toBe(200);
    expect((await get(app, path)).body.item).toEqual({ pk: 'wide', sk: 's', title: 'Narrow' });
    expect((await call(app, 'DELETE', path)).status).toBe(204);
  });

  // Each names what is too long: the primary key attribute (for a batch, in the entry's error), or the parameter.
  const longPk = 'p'.repeat(2049);
  const longSk = 's'.repeat(1025);
  const longName = 'n'.repeat(65_536);
  const sweep: [string, string, string, string, unknown, RegExp][] = [
    ['GET item, long pk', 'GET', itemPath(`pk=${longPk}&sk=s`), 'key_too_large', undefined, /"pk" is 2049 bytes/],
    ['GET item, long sk', 'GET', itemPath(`pk=p&sk=${longSk}`), 'key_too_large', undefined, /"sk" is 1025 bytes/],
    ['DELETE item', 'DELETE', itemPath(`pk=${longPk}&sk=s`), 'key_too_large', undefined, /"pk" is 2049/],
    ['PATCH item', 'PATCH', itemPath(`pk=p&sk=${longSk}`), 'key_too_large', { year: 1 }, /"sk" is 1025/],
    ['PUT item', 'PUT', '/collections/albums/items', 'key_too_large', { ...good, pk: longPk }, /"pk" is 2049/],
    ['PUT, a 64 KiB name', 'PUT', '/collections/albums/items', 'invalid_item', { ...good, [longName]: 1 }, /65536 b/],
    ['PATCH, a 64 KiB name', 'PATCH', itemPath('pk=artist&sk=album%231'), 'invalid_item', { [longName]: 1 }, /65536/],
    [
      'batch write',
      'POST',
      '/collections/albums/items/batch',
      'invalid_item',
      { items: [{ ...good, sk: longSk }] },
      /"sk" is 1025/,
    ],
    [
      'batch-get',
      'POST',
      '/collections/albums/items/batch-get',
      'invalid_request',
      { keys: [{ pk: longPk, sk: 's' }] },
      /"pk" is 2049/,
    ],
    [
      'batch-delete',
      'POST',
      '/collections/albums/items/batch-delete',
      'invalid_request',
      { keys: [{ pk: 'p', sk: longSk }] },
      /"sk" is 1025/,
    ],
    [
      'listing key',
      'GET',
      `/collections/albums/items?key=${'k'.repeat(1024)}`,
      'invalid_request',
      undefined,
      /^key is 1024 bytes/,
    ],
    [
      'listing prefix',
      'GET',
      `/collections/albums/items?prefix=${'k'.repeat(1025)}`,
      'invalid_request',
      undefined,
      /^prefix is 1025/,
    ],
    [
      'listing from',
      'GET',
      `/collections/albums/items?from=${'k'.repeat(2000)}`,
      'invalid_request',
      undefined,
      /^from is 2000/,
    ],
    [
      'listing to',
      'GET',
      `/collections/albums/items?to=${'k'.repeat(1024)}`,
      'invalid_request',
      undefined,
      /^to is 1024 bytes/,
    ],
    [
      'typed listing to',
      'GET',
      `/collections/albums-by-year/items?key=2000&to=${'k'.repeat(1020)}`,
      'invalid_request',
      undefined,
      /^to is/,
    ],
  ];
  it.each(sweep)('%s: a 400 naming it, nothing written', async (_, method, path, code, body, said) => {
    const answer = await call(app, method, path, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.error.code).toBe(code);
    expect(
      messagesIn(answer.body.error).some((message) => said.test(message)),
      JSON.stringify(answer.body),
    ).toBe(true);
    expect((await get(app, '/collections/albums/items')).body.items).toEqual([good]);
  });
});
