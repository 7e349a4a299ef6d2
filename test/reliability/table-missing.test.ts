import { describe, expect, inject, it } from 'vitest';
import { dropTableBehindTheBack } from '../support/behind-the-back';
import { get, put } from '../support/http';
import { startTestService } from '../support/service';
import { waitUntilReady } from '../../devtools/wait-until';

const FAST = { SHARDLINE_MAP_TTL_MS: '50' };
const ALBUM = { pk: 'Tangerine Dream', sk: 'album#Phaedra', title: 'Phaedra' };

/** A table that disappears (DynamoDB Local restarted empty): a 503 naming it, never a stale map forever. */
describe('a table that disappears, on DynamoDB Local', () => {
  it('answers 503 table_missing naming it, and fails readiness, where shardline does not create tables', async () => {
    const service = await startTestService('dynamodbLocal', { env: { ...FAST, SHARDLINE_CREATE_TABLE: 'false' } });
    expect((await put(service.app, '/collections/albums/items', ALBUM)).status).toBe(201);
    await dropTableBehindTheBack(inject('engines').dynamodbLocal, service.table);
    let listing = await get(service.app, '/collections/albums/items');
    await waitUntilReady(
      async () => {
        listing = await get(service.app, '/collections/albums/items');
        return listing.status !== 200;
      },
      { intervalMs: 50, timedOut: () => 'the listing kept answering 200 with its table gone' },
    );
    expect(listing.status).toBe(503);
    expect(listing.body.error).toMatchObject({ code: 'table_missing', tables: [service.table] });
    expect(listing.body.error.message).toContain(service.table);
    let health = await get(service.app, '/healthz');
    await waitUntilReady(
      async () => {
        health = await get(service.app, '/healthz');
        return health.status !== 200;
      },
      { intervalMs: 100, timedOut: () => '/healthz kept answering 200 with the table gone' },
    );
    expect(health.status).toBe(503);
    expect(health.body.error.code).toBe('table_missing');
  });

  it('creates the table and its shard maps again where it created them at start', async () => {
    const service = await startTestService('dynamodbLocal', { env: FAST });
    expect((await put(service.app, '/collections/albums/items', ALBUM)).status).toBe(201);
    await dropTableBehindTheBack(inject('engines').dynamodbLocal, service.table);
    const statuses = new Set<string>();
    await waitUntilReady(
      async () => {
        const written = await put(service.app, '/collections/albums/items', { ...ALBUM, title: 'Phaedra (again)' });
        statuses.add(written.status === 201 ? '201' : `${written.status} ${written.body.error.code}`);
        return written.status === 201;
      },
      { intervalMs: 100, timedOut: () => `the table was not created again (${[...statuses].join(', ')})` },
    );
    expect([...statuses]).toContain('503 table_missing');
    const listing = await get(service.app, '/collections/albums/items');
    expect(listing.status).toBe(200);
    expect(listing.body.items.map((item: { title: string }) => item.title)).toEqual(['Phaedra (again)']);
  });
});
