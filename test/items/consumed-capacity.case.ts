import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineEndpoints } from '../support/global-setup';
import { startTestService } from '../support/service';
import { send } from './support';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

/** An item of the demo collection just under `kb` KB (DynamoDB counts names and values, UTF-8). */
const sized = (pk: string, kb: number) =>
  JSON.stringify({ pk, sk: 's', title: `Sized ${pk}`, blob: 'x'.repeat(kb * 1024 - 200) });

const units = (answer: { headers: Headers }) => ({
  rcu: answer.headers.get('x-consumed-rcu'),
  wcu: answer.headers.get('x-consumed-wcu'),
});

/**
 * Every item route answers with what the engine reported for its calls. DynamoDB Local reports as
 * DynamoDB does, the index's units included; dynalite reports the table's units only.
 */
export function defineConsumedCapacitySuite(engine: keyof EngineEndpoints, indexReported: boolean): void {
  /** Write units of the table, doubled where the index (which projects every attribute) is reported. */
  const writes = (n: number) => String(indexReported ? 2 * n : n);
  describe(`consumed capacity headers over ${engine}`, () => {
    let app: App;
    beforeAll(async () => {
      ({ app } = await startTestService(engine));
    });

    it('PUT, GET, PATCH and DELETE of a 10 KB item report table and index units', async () => {
      const put = await send(app, 'PUT', '/collections/albums/items', sized('cap-1', 10));
      expect(put.status).toBe(201);
      // 10 write units for the table, 10 for the index, which projects every attribute.
      expect(units(put)).toEqual({ rcu: '0', wcu: writes(10) });
      const get = await send(app, 'GET', '/collections/albums/item?pk=cap-1&sk=s');
      expect(get.status).toBe(200);
      // An eventually consistent read of 10 KB: half a unit for each 4 KB.
      expect(units(get)).toEqual({ rcu: '1.5', wcu: '0' });
      const patch = await send(app, 'PATCH', '/collections/albums/item?pk=cap-1&sk=s', '{"year":2001}');
      expect(patch.status).toBe(200);
      // A PATCH reads the item (strongly consistent: 3 units of 4 KB) and writes it back.
      expect(units(patch)).toEqual({ rcu: '3', wcu: writes(10) });
      const gone = await send(app, 'DELETE', '/collections/albums/item?pk=cap-1&sk=s');
      expect(gone.status).toBe(204);
      expect(units(gone)).toEqual({ rcu: '0', wcu: writes(10) });
    });

    it('batch write, batch get and batch delete sum their calls', async () => {
      const items = [sized('cap-b1', 10), sized('cap-b2', 10)].join(',');
      const batch = await send(app, 'POST', '/collections/albums/items/batch', `{"items":[${items}]}`);
      expect(batch.status).toBe(200);
      expect(units(batch)).toEqual({ rcu: '0', wcu: writes(20) });
      const keys = '{"keys":[{"pk":"cap-b1","sk":"s"},{"pk":"cap-b2","sk":"s"}]}';
      const got = await send(app, 'POST', '/collections/albums/items/batch-get', keys);
      expect(got.status).toBe(200);
      expect(units(got)).toEqual({ rcu: '3', wcu: '0' });
      const deleted = await send(app, 'POST', '/collections/albums/items/batch-delete', keys);
      expect(deleted.status).toBe(200);
      expect(units(deleted)).toEqual({ rcu: '0', wcu: writes(20) });
    });

    it('the listing keeps its own header and no write units', async () => {
      const listing = await send(app, 'GET', '/collections/albums/items?limit=5');
      expect(listing.status).toBe(200);
      expect(listing.headers.get('x-consumed-wcu')).toBeNull();
    });
  });
}
