import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareKeys } from '../../src/core/collation';
import { createClient, ExactNumber, type Item, ShardlineClientError } from '../../src/client/index';
import { ENGINES, startTestService } from '../support/service';
import { GROUPS_CONFIG, resize } from './support';

/** Day `i` of 2026: order by date is order by i. */
const date = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);

/** What an async iterator gives, in order. */
async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const value of iterable) seen.push(value);
  return seen;
}

/**
 * `shardline/client`'s group handle against the real service over HTTP: a customer whose id
 * holds every character a path gives meaning to, and projects grouped by number.
 */
describe.each(ENGINES)('a group through the client (%s)', (engine) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let server: ServerType;
  let baseUrl: string;
  const client = () => createClient({ baseUrl });

  beforeAll(async () => {
    // A short map TTL: a resize's settle time (300 ms here) covers three of them, as in production.
    service = await startTestService(engine, { config: GROUPS_CONFIG, env: { SHARDLINE_MAP_TTL_MS: '50' } });
    server = serve({ port: 0, hostname: '127.0.0.1', fetch: service.app.fetch });
    await new Promise<void>((listening) => server.once('listening', () => listening()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.close();
    service?.dynamo.destroy();
  });

  it('lists a customer whose id holds separators, newest first, page by page, and no other', async () => {
    const customer = 'c#1/2 50% ß😀?';
    const neighbours = ['c#1', 'c#1/2 50% ß😀', 'c', `${customer}#0`];
    const orders = client().collection('orders');
    const mine = Array.from({ length: 7 }, (_, i) => ({ pk: `mine-${i}`, sk: 'order', customerId: customer }));
    const theirs = neighbours.flatMap((customerId, g) =>
      Array.from({ length: 3 }, (_, i) => ({ pk: `other-${g}-${i}`, sk: 'order', customerId })),
    );
    const items = [...mine, ...theirs].map((item, i) => ({ ...item, orderDate: date((i * 5) % 17), total: i }));
    expect(await orders.batchPut(items)).toEqual({ written: items.length, failed: [] });

    const expected = items
      .filter((item) => item.customerId === customer)
      .sort((a, b) => compareKeys(b.orderDate, a.orderDate) || compareKeys(a.pk, b.pk));
    const group = orders.group(customer);
    const pages = await all(group.pages({}, { pageSize: 3 }));
    expect(pages.map((page) => page.items.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((page) => page.items)).toEqual(expected);

    // The collection's filters, order and projection, within the group.
    const [from, to] = [date(3), date(12)];
    // Oldest first: `desc` reverses the collection's order (newest first), ties included.
    const window = await all(group.list({ from, to, order: 'desc', fields: 'pk,orderDate' }, { pageSize: 2 }));
    const inWindow = expected.filter((item) => item.orderDate >= from && item.orderDate <= to).reverse();
    expect(inWindow.length).toBeGreaterThan(1);
    expect(window.map((item) => item.pk)).toEqual(inWindow.map((item) => item.pk));
    expect(window.every((item: Item) => item.total === undefined && typeof item.orderDate === 'string')).toBe(true);

    expect(await group.info()).toEqual({
      group: customer,
      shards: 1,
      writeShards: 1,
      phase: 'stable',
      changedAt: 0,
      settleMs: 0,
      revision: 0,
    });
    for (const [g, customerId] of neighbours.entries()) {
      const listed = await all(orders.group(customerId).list());
      expect(listed.map((item) => item.pk).sort(), customerId).toEqual([0, 1, 2].map((i) => `other-${g}-${i}`));
    }
  });

  it('follows a grown group: its shards in describe(), its listing still exact and in order', async () => {
    const customer = 'whale/#1';
    const orders = client().collection('orders');
    const items = Array.from({ length: 30 }, (_, i) => ({
      pk: `w-${i}`,
      sk: 'order',
      customerId: customer,
      orderDate: date(i % 11),
    }));
    await orders.batchPut(items.slice(0, 10));
    await resize(service, 'orders', customer, 4);
    await orders.batchPut(items.slice(10));
    const described = await orders.group(customer).describe();
    expect(described).toMatchObject({ group: customer, shards: 4, writeShards: 4, phase: 'stable', revision: 2 });
    const expected = items.sort((a, b) => compareKeys(b.orderDate, a.orderDate) || compareKeys(a.pk, b.pk));
    expect(await all(orders.group(customer).list({}, { pageSize: 4 }))).toEqual(expected);
  });

  it('reads a number group as a number, 1.50 and 1.5 being one group, and refuses text that is none', async () => {
    // Lossless: the project id past a double's digits goes out as written.
    const tickets = createClient({ baseUrl, lossless: true }).collection('tickets');
    const written = [
      { pk: 't1', sk: 'ticket', projectId: 1.5, title: 'b' },
      { pk: 't2', sk: 'ticket', projectId: 1.5, title: 'a' },
      { pk: 't3', sk: 'ticket', projectId: 15, title: 'c' },
      { pk: 't4', sk: 'ticket', projectId: 12345678901234567890n, title: 'd' },
    ];
    expect((await tickets.batchPut(written)).failed).toEqual([]);
    for (const value of [1.5, '1.50', new ExactNumber('15E-1')]) {
      expect((await all(tickets.group(value).list())).map((item) => item.pk)).toEqual(['t2', 't1']);
    }
    expect((await tickets.group(1.5).info()).group).toBe('1.5');
    expect((await all(tickets.group(15).list())).map((item) => item.pk)).toEqual(['t3']);
    const big = tickets.group(12345678901234567890n);
    expect((await all(big.list())).map((item) => item.pk)).toEqual(['t4']);
    expect((await big.info()).group).toBe('12345678901234567890');
    const refused = await tickets
      .group('1.5x')
      .info()
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShardlineClientError);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((refused as Error).message).toMatch(/projectId/);
  });

  it("answers a grouped collection's own listing with the error that names the group route", async () => {
    const refused = await all(client().collection('orders').list()).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((refused as Error).message).toContain('/collections/orders/groups/{customerId}/items');
  });
});
