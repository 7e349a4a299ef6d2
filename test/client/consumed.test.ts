import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index';
import { startTestService } from '../support/service';

/**
 * What each call cost, as the client hands it over: the units DynamoDB Local reported for the request's calls
 * (the table and the index, which projects every attribute), read from the item routes' headers.
 */
describe('the client reports the capacity a call consumed (DynamoDB Local)', () => {
  let server: ServerType;
  let baseUrl: string;

  beforeAll(async () => {
    const service = await startTestService('dynamodbLocal');
    server = serve({ port: 0, hostname: '127.0.0.1', fetch: service.app.fetch });
    await new Promise<void>((listening) => server.once('listening', () => listening()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server?.close());

  it('gives the write units of a 10 KB put, the read units of its get, and a patch of one attribute', async () => {
    const albums = createClient({ baseUrl }).collection('albums');
    const key = { pk: 'consumed', sk: 'album' };
    const put = await albums.put({ ...key, title: 'Heavy', notes: 'n'.repeat(10 * 1024) });
    // 10 KB (and a little) to the table and again to the index: 11 write units each.
    expect(put.consumed?.writeUnits).toBeGreaterThanOrEqual(20);
    const got = await albums.get(key);
    expect(got?.consumed?.readUnits).toBeGreaterThan(0);
    expect(got?.consumed?.writeUnits).toBe(0);
    const patched = await albums.patch(key, { year: 2006 });
    expect(patched.consumed?.writeUnits).toBeGreaterThanOrEqual(20);
  });
});
