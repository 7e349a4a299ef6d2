import type { NumberValue } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { resolveConfig } from '../../src/config/config';
import { reservedPartition } from '../../src/store/reserved-keys';
import { type RawAnswer, send } from '../items/support';
import { ENGINES, startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

/** Every shape of shardline's own keys in the demo table (src/store/map-store.ts, load-store.ts, checkpoints.ts). */
const STRING_KEYS = [
  { pk: '__shardline#map#albums', sk: 'pointer' },
  { pk: '__shardline#map#albums', sk: 'v1' },
  { pk: `__shardline#load#albums#${60_000 * 29_000_000}`, sk: 'router-1' },
  { pk: '__shardline#follow#*#stream#shardId-1', sk: 'checkpoint' },
  { pk: '__shardline#', sk: 'anything' },
];

/** A table keyed by a number alone, as test/integration/numeric-key-table.test.ts has it. */
const NUMERIC = {
  table: { partitionKey: { name: 'id', type: 'N' }, sortKey: null },
  collections: { books: { field: 'title', strategy: { kind: 'hash', shards: 3 } } },
};

const query = (key: Record<string, string>) => new URLSearchParams(key).toString();

/** The seven item routes, each naming `key` (JSON text of its attributes, numbers kept exact) or an item with it. */
function everyRoute(app: App, collection: string, keyJson: string, keyQuery: string): Promise<[string, RawAnswer]>[] {
  const item = `{${keyJson.slice(1, -1)},"title":"forged"}`;
  const path = `/collections/${collection}`;
  const patch = { 'content-type': 'application/merge-patch+json' };
  return [
    ['PUT', send(app, 'PUT', `${path}/items`, item)],
    ['PATCH', send(app, 'PATCH', `${path}/item?${keyQuery}`, '{"title":"forged"}', patch)],
    ['DELETE', send(app, 'DELETE', `${path}/item?${keyQuery}`)],
    ['GET', send(app, 'GET', `${path}/item?${keyQuery}`)],
    ['batch', send(app, 'POST', `${path}/items/batch`, `{"items":[${item}]}`)],
    ['batch-delete', send(app, 'POST', `${path}/items/batch-delete`, `{"keys":[${keyJson}]}`)],
    ['batch-get', send(app, 'POST', `${path}/items/batch-get`, `{"keys":[${keyJson}]}`)],
  ].map(
    async ([route, answer]): Promise<[string, RawAnswer]> => [route as string, await (answer as Promise<RawAnswer>)],
  );
}

describe.each(ENGINES)("shardline's reserved key space on %s", (engine) => {
  let app: App;
  let table: string;
  const ownItems = async () => (await scanTable(inject('engines')[engine], table, { reserved: true })).filter(isOwn);
  const isOwn = (row: Record<string, unknown>) => String(row.pk).startsWith('__shardline#');

  beforeAll(async () => {
    ({ app, table } = await startTestService(engine));
  });

  it('refuses every item route on every reserved key shape with 403 reserved_key, the maps untouched', async () => {
    const before = await ownItems();
    expect(before.some((row) => row.sk === 'pointer')).toBe(true);
    for (const key of STRING_KEYS) {
      for (const [route, answer] of await Promise.all(everyRoute(app, 'albums', JSON.stringify(key), query(key)))) {
        expect(answer.status, `${route} ${key.pk}/${key.sk}: ${answer.text}`).toBe(403);
        expect(answer.body.error).toMatchObject({ code: 'reserved_key', prefix: '__shardline#', attribute: 'pk' });
        expect(answer.body.error.message).toContain('"__shardline#"');
      }
    }
    expect(await ownItems()).toEqual(before);
    const listing = await send(app, 'GET', '/collections/albums/items?limit=5');
    expect(listing.status, listing.text).toBe(200);
  });

  it('refuses a whole batch that names one reserved key, writing and deleting nothing', async () => {
    const good = '{"pk":"batch-ok","sk":"s","title":"Fine"}';
    const forged = `{"pk":"__shardline#map#albums","sk":"pointer","title":"x"}`;
    const written = await send(app, 'POST', '/collections/albums/items/batch', `{"items":[${good},${forged}]}`);
    expect(written.status).toBe(403);
    expect(written.plain.error).toMatchObject({ code: 'reserved_key', indexes: [1] });
    expect((await send(app, 'GET', '/collections/albums/item?pk=batch-ok&sk=s')).status).toBe(404);

    expect((await send(app, 'PUT', '/collections/albums/items', good)).status).toBe(201);
    const keys = `{"keys":[{"pk":"batch-ok","sk":"s"},{"pk":"__shardline#map#albums","sk":"v1"}]}`;
    const deleted = await send(app, 'POST', '/collections/albums/items/batch-delete', keys);
    expect(deleted.status).toBe(403);
    expect(deleted.plain.error).toMatchObject({ code: 'reserved_key', indexes: [1] });
    expect((await send(app, 'GET', '/collections/albums/item?pk=batch-ok&sk=s')).status).toBe(200);
  });

  it('refuses _ttl in PUT, PATCH and batch like _etag, naming it', async () => {
    const withTtl = '{"pk":"ttl-1","sk":"s","title":"Expiring","_ttl":1}';
    const answers = [
      await send(app, 'PUT', '/collections/albums/items', withTtl),
      await send(app, 'POST', '/collections/albums/items/batch', `{"items":[${withTtl}]}`),
    ];
    expect((await send(app, 'PUT', '/collections/albums/items', '{"pk":"ttl-2","sk":"s","title":"T"}')).status).toBe(
      201,
    );
    answers.push(await send(app, 'PATCH', '/collections/albums/item?pk=ttl-2&sk=s', '{"_ttl":1}'));
    const etag = await send(app, 'PUT', '/collections/albums/items', '{"pk":"ttl-1","sk":"s","title":"E","_etag":"x"}');
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.error.code).toBe(etag.body.error.code);
      expect(answer.text).toContain('_ttl');
    }
    const rows = await scanTable(inject('engines')[engine], table);
    expect(rows.find((row) => row.pk === 'ttl-1')).toBeUndefined();
    expect(rows.find((row) => row.pk === 'ttl-2')?._ttl).toBeUndefined();
  });
});

describe.each(ENGINES)('the reserved numbers of a numeric partition key on %s', (engine) => {
  it('refuses every item route on a reserved number with 403 reserved_key, the maps untouched', async () => {
    const { app, table } = await startTestService(engine, { config: NUMERIC });
    const [books] = resolveConfig(NUMERIC);
    const numbers = ['map#books#pointer', 'map#books#v1', 'follow#*#s#shard-1'].map(
      (owner) => (reservedPartition(books!, owner) as NumberValue).value,
    );
    const rows = async () => (await scanTable(inject('engines')[engine], table, { reserved: true })).length;
    const before = await rows();
    for (const id of [...numbers, '-9.999E+125']) {
      for (const [route, answer] of await Promise.all(everyRoute(app, 'books', `{"id":${id}}`, query({ id })))) {
        expect(answer.status, `${route} ${id}: ${answer.text}`).toBe(403);
        expect(answer.body.error).toMatchObject({ code: 'reserved_key', attribute: 'id' });
      }
    }
    // An ordinary negative number, and one below what DynamoDB stores, are no reserved keys.
    expect((await send(app, 'PUT', '/collections/books/items', '{"id":-5,"title":"Fine"}')).status).toBe(201);
    expect((await send(app, 'PUT', '/collections/books/items', '{"id":-1e127,"title":"No"}')).status).toBe(400);
    expect(await rows()).toBe(before + 1);
    const listing = await send(app, 'GET', '/collections/books/items');
    expect(listing.status).toBe(200);
    expect(listing.plain.items).toEqual([{ id: -5, title: 'Fine' }]);
  });
});
