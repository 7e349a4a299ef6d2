/* eslint-disable @typescript-eslint/no-explicit-any -- test assertions read arbitrary JSON */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { itemSize, MAX_ITEM_BYTES, prepareItem } from '../../src/core/item';
import { normalize } from '../../src/core/normalize';
import { get, put } from '../support/http';
import { startTestService } from '../support/service';
import { text } from '../support/arbitraries';

type Service = Awaited<ReturnType<typeof startTestService>>;

/**
 * docs/api.md's limits, checked against the real engine: what shardline
 * accepts, DynamoDB Local stores (201, read back intact); one byte more is a 400
 * from shardline, never a 500 from DynamoDB.
 */
describe('DynamoDB limits, at the edge, over DynamoDB Local', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startTestService('dynamodbLocal');
  });

  async function roundTrip(item: Record<string, unknown>): Promise<void> {
    const written = await put(service.app, '/collections/albums/items', item);
    expect(written.status, JSON.stringify(written.body).slice(0, 300)).toBe(201);
    const query = new URLSearchParams({ pk: item.pk as string, sk: item.sk as string });
    const read = await get(service.app, `/collections/albums/item?${query}`);
    expect(read.status).toBe(200);
    expect(read.body.item).toEqual(item);
  }

  it('partition key: over 2048 bytes refused; in a collection the index key binds first', async () => {
    const over = await put(service.app, '/collections/albums/items', {
      pk: '€'.repeat(682) + 'abc',
      sk: 's',
      title: 't',
    }); // 2049 bytes
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({
      code: 'key_too_large',
      message: expect.stringContaining('"pk" is 2049 bytes'),
    });
    // The primary key is the index sort key's tiebreaker: gsi1sk = "t" + U+0000 + ["<pk>","s"] must fit 1024 bytes.
    await roundTrip({ pk: 'p'.repeat(1014), sk: 's', title: 't' });
    const tooLong = await put(service.app, '/collections/albums/items', { pk: 'p'.repeat(1015), sk: 's', title: 't' });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe('key_too_large');
  });

  it('index sort key: 1024 bytes stored, 1025 refused with key_too_large', async () => {
    // gsi1sk = normalized title + U+0000 + ["p","s"] (9 bytes): 1014 + 1 + 9 = 1024.
    await roundTrip({ pk: 'p', sk: 's', title: 'a'.repeat(1014) });
    const over = await put(service.app, '/collections/albums/items', { pk: 'p', sk: 's', title: 'a'.repeat(1015) });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('key_too_large');
    // NFKD can grow a value (U+FDFA is 3 bytes, 33 once decomposed): the limit applies to what is stored.
    const fits = Math.floor((1024 - 10) / Buffer.byteLength(normalize('\uFDFA', 'nfkd-lower')));
    await roundTrip({ pk: 'p', sk: 's', title: '\uFDFA'.repeat(fits) });
    const grown = await put(service.app, '/collections/albums/items', {
      pk: 'p',
      sk: 's',
      title: '\uFDFA'.repeat(fits + 1),
    });
    expect(Buffer.byteLength('\uFDFA'.repeat(fits + 1))).toBeLessThan(200);
    expect(grown.status).toBe(400);
    expect(grown.body.error.code).toBe('key_too_large');
  });

  it('item size: 400 KB with index keys stored, one byte more refused', async () => {
    const { read: collection } = await service.maps.snapshot(service.collections.find((c) => c.name === 'albums')!, {});
    const base = { pk: 'big', sk: 's', title: 'Big', blob: '' };
    const overhead = itemSize(prepareItem(collection, base, () => 0).record);
    const exact = { ...base, blob: 'x'.repeat(MAX_ITEM_BYTES - overhead) };
    await roundTrip(exact);
    const over = await put(service.app, '/collections/albums/items', { ...exact, blob: `${exact.blob}x` });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('item_too_large');
  });

  it('numbers and nesting: what DynamoDB stores passes, what it cannot is a 400', async () => {
    await roundTrip({ pk: 'n', sk: 's', title: 'numbers', big: 9.99e125, small: 1e-130, neg: -1.5, zero: 0 });
    expect(
      (await put(service.app, '/collections/albums/items', { pk: 'n', sk: 't', title: 'x', v: 1e126 })).status,
    ).toBe(400);
    expect(
      (await put(service.app, '/collections/albums/items', { pk: 'n', sk: 't', title: 'x', v: 1e-131 })).status,
    ).toBe(400);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 31; i++) deep = { d: deep };
    await roundTrip({ pk: 'deep', sk: 's', title: 'deep', deep });
    expect(
      (await put(service.app, '/collections/albums/items', { pk: 'deep', sk: 't', title: 'x', deep: { d: deep } }))
        .status,
    ).toBe(400);
  });

  it('every random item shardline accepts, DynamoDB Local stores (never a 5xx)', async () => {
    const attribute = fc.oneof(
      text(30),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(text(5), { maxLength: 4 }),
      fc.dictionary(text(4), text(6), { maxKeys: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(
        text(40),
        text(40),
        text(60),
        fc.dictionary(text(8), attribute, { maxKeys: 4 }),
        async (pk, sk, title, extra) => {
          const item = { ...extra, pk, sk, title };
          const written = await put(service.app, '/collections/albums-hash/items', item);
          expect(written.status, JSON.stringify(written.body)).toBeLessThan(500);
          expect([201, 400]).toContain(written.status);
        },
      ),
      { numRuns: 60 },
    );
  });
});
