import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { EngineEndpoints } from '../support/global-setup';
import { startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';
import { send } from './support';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

const item = (pk: string, title: string, extra = '') => `{"pk":"${pk}","sk":"s","title":"${title}"${extra}}`;
const titles = (answer: { body: { items: { title: string }[] } }) => answer.body.items.map(({ title }) => title);

/** The item API: PATCH, conditional writes, batch get/delete, projection, ownership. */
export function defineItemApiSuite(engine: keyof EngineEndpoints): void {
  describe(`item API over ${engine}`, () => {
    let app: App;
    let table: string;
    const raw = async (pk: string) => (await scanTable(inject('engines')[engine], table)).find((r) => r.pk === pk);
    const put = (body: string, headers: Record<string, string> = {}, collection = 'albums') =>
      send(app, 'PUT', `/collections/${collection}/items`, body, headers);

    beforeAll(async () => {
      ({ app, table } = await startTestService(engine));
    });

    it('PATCH merges, removes with null, and moves the item in the order in the same write', async () => {
      for (const [pk, title] of [
        ['p-a', 'Apple'],
        ['p-m', 'Mango'],
        ['p-z', 'Zucchini'],
      ] as const) {
        expect((await put(item(pk, title, ',"meta":{"a":1,"b":2},"year":1999'))).status).toBe(201);
      }
      const before = (await raw('p-m'))!;
      const patched = await send(
        app,
        'PATCH',
        '/collections/albums/item?pk=p-m&sk=s',
        '{"title":"Zzz top","meta":{"b":null,"c":3},"year":null}',
        { 'content-type': 'application/merge-patch+json' },
      );
      expect(patched.status, patched.text).toBe(200);
      expect(patched.text).toContain('"meta":{"a":1,"c":3}');
      expect(patched.body.item.year).toBeUndefined();
      const route = await send(app, 'GET', `/collections/albums/route?key=${encodeURIComponent('Zzz top')}`);
      expect(patched.body.shardKey).toBe(route.body.shardKeys[0]);
      const after = (await raw('p-m'))!;
      expect(after.gsi1pk).toBe(patched.body.shardKey);
      expect(after.gsi1sk).not.toBe(before.gsi1sk);
      expect(String(after.gsi1sk).startsWith('zzz top\u0000')).toBe(true);
      const listing = await send(app, 'GET', '/collections/albums/items');
      expect(titles(listing).filter((t) => ['Apple', 'Zucchini', 'Zzz top', 'Mango'].includes(t))).toEqual([
        'Apple',
        'Zucchini',
        'Zzz top',
      ]);
      // Plain application/json is a merge patch too; a key attribute cannot change; an absent item is a 404.
      expect((await send(app, 'PATCH', '/collections/albums/item?pk=p-a&sk=s', '{"year":2001}')).status).toBe(200);
      expect((await send(app, 'PATCH', '/collections/albums/item?pk=p-a&sk=s', '{"pk":"other"}')).status).toBe(400);
      expect((await send(app, 'PATCH', '/collections/albums/item?pk=none&sk=s', '{"year":1}')).status).toBe(404);
      expect((await send(app, 'PATCH', '/collections/albums/item?pk=p-a&sk=s', '{"title":null}')).status).toBe(400);
    });

    it('gives strong ETags and enforces If-Match and If-None-Match: * with 412', async () => {
      const created = await put(item('e1', 'Etag'), { 'if-none-match': '*' });
      expect(created.status).toBe(201);
      const etag = created.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const read = await send(app, 'GET', '/collections/albums/item?pk=e1&sk=s');
      expect(read.headers.get('etag')).toBe(etag);
      expect(
        (await send(app, 'GET', '/collections/albums/item?pk=e1&sk=s', undefined, { 'if-none-match': etag })).status,
      ).toBe(304);

      const again = await put(item('e1', 'Etag', ',"v":2'), { 'if-none-match': '*' });
      expect(again.status).toBe(412);
      expect(again.body.error.code).toBe('precondition_failed');
      expect((await put(item('e1', 'Etag', ',"v":2'), { 'if-match': '"stale"' })).status).toBe(412);
      expect((await raw('e1'))?.v).toBeUndefined();

      const updated = await put(item('e1', 'Etag', ',"v":2'), { 'if-match': etag });
      expect(updated.status).toBe(201);
      const next = updated.headers.get('etag')!;
      expect(next).not.toBe(etag);
      const stalePatch = await send(app, 'PATCH', '/collections/albums/item?pk=e1&sk=s', '{"v":3}', {
        'if-match': etag,
      });
      expect(stalePatch.status).toBe(412);
      const patch = await send(app, 'PATCH', '/collections/albums/item?pk=e1&sk=s', '{"v":3}', { 'if-match': next });
      expect(patch.status).toBe(200);
      const patchedEtag = patch.headers.get('etag')!;
      expect((await send(app, 'GET', '/collections/albums/item?pk=e1&sk=s')).headers.get('etag')).toBe(patchedEtag);
      expect((await put(item('e2', 'New'), { 'if-match': '*' })).status).toBe(412);

      const staleDelete = await send(app, 'DELETE', '/collections/albums/item?pk=e1&sk=s', undefined, {
        'if-match': next,
      });
      expect(staleDelete.status).toBe(412);
      expect(await raw('e1')).toMatchObject({ pk: 'e1', sk: 's' }); // still there
      const del = await send(app, 'DELETE', '/collections/albums/item?pk=e1&sk=s', undefined, {
        'if-match': patchedEtag,
      });
      expect(del.status).toBe(204);
      expect(await raw('e1')).toBeUndefined();
    });

    it('refuses with 409 a write through one collection of an item that belongs to another', async () => {
      expect((await put(item('own', 'Mine'))).status).toBe(201);
      const before = (await raw('own'))!;
      const taken = await put(item('own', 'Mine'), {}, 'albums-hash');
      expect(taken.status).toBe(409);
      expect(taken.body.error.code).toBe('conflict');
      const patch = await send(app, 'PATCH', '/collections/albums-hash/item?pk=own&sk=s', '{"x":1}');
      expect(patch.status).toBe(409);
      expect((await send(app, 'DELETE', '/collections/albums-hash/item?pk=own&sk=s')).status).toBe(409);
      const batch = await send(
        app,
        'POST',
        '/collections/albums-hash/items/batch-delete',
        '{"keys":[{"pk":"own","sk":"s"}]}',
      );
      expect(batch.plain).toMatchObject({ deleted: 0, failed: [{ index: 0, error: { code: 'conflict' } }] });
      const items = [item('own', 'Mine'), item('fresh', 'Fresh')];
      const batchPut = await send(
        app,
        'POST',
        '/collections/albums-hash/items/batch',
        `{"items":[${items.join(',')}]}`,
      );
      expect(batchPut.plain).toMatchObject({ written: 1, failed: [{ index: 0, error: { code: 'conflict' } }] });
      expect(await raw('own')).toEqual(before);
      expect((await send(app, 'GET', '/collections/albums-hash/item?pk=own&sk=s')).status).toBe(404);
    });

    it('batch-gets items in key order and lists the missing keys', async () => {
      for (const pk of ['b1', 'b2'])
        expect((await put(item(pk, `Batch ${pk}`, ',"n":12345678901234567890'))).status).toBe(201);
      expect((await put(item('b3', 'Theirs'), {}, 'albums-hash')).status).toBe(201);
      const keys = ['b2', 'nope', 'b1', 'b3'].map((pk) => ({ pk, sk: 's' }));
      const answer = await send(app, 'POST', '/collections/albums/items/batch-get', JSON.stringify({ keys }));
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.items.map((i: { pk: string }) => i.pk)).toEqual(['b2', 'b1']);
      expect(answer.text).toContain('"n":12345678901234567890');
      expect(answer.body.missing).toEqual([
        { pk: 'nope', sk: 's' },
        { pk: 'b3', sk: 's' },
      ]);
      const projected = await send(
        app,
        'POST',
        '/collections/albums/items/batch-get?fields=title',
        JSON.stringify({ keys }),
      );
      // Each item with its key, named or not: else it could not be matched to the key asked.
      expect(projected.body.items).toEqual([
        { pk: 'b2', sk: 's', title: 'Batch b2' },
        { pk: 'b1', sk: 's', title: 'Batch b1' },
      ]);
      const tooMany = Array.from({ length: 101 }, (_, i) => ({ pk: `k${i}`, sk: 's' }));
      expect(
        (await send(app, 'POST', '/collections/albums/items/batch-get', JSON.stringify({ keys: tooMany }))).status,
      ).toBe(400);
      const repeated = { keys: [keys[0], keys[0]] };
      expect((await send(app, 'POST', '/collections/albums/items/batch-get', JSON.stringify(repeated))).status).toBe(
        400,
      );
    });

    it('batch-gets fields that name key attributes, each item with its key', async () => {
      expect((await put(item('e1', 'Mail', ',"email":"e1@example.com"'))).status).toBe(201);
      expect((await put(item('e2', 'No mail'))).status).toBe(201);
      const keys = [
        { pk: 'e2', sk: 's' },
        { pk: 'e1', sk: 's' },
      ];
      const expected = [
        { pk: 'e2', sk: 's' },
        { pk: 'e1', sk: 's', email: 'e1@example.com' },
      ];
      for (const fields of [['pk', 'email'], ['email', 'sk', 'pk', 'email'], ['email']]) {
        const answer = await send(app, 'POST', '/collections/albums/items/batch-get', JSON.stringify({ keys, fields }));
        expect(answer.status, answer.text).toBe(200);
        expect(answer.body.items).toEqual(expected);
      }
      const inQuery = await send(
        app,
        'POST',
        '/collections/albums/items/batch-get?fields=pk,email',
        JSON.stringify({ keys }),
      );
      expect(inQuery.body.items).toEqual(expected);
    });

    it('batch-deletes, reporting each key not deleted', async () => {
      for (const pk of ['d1', 'd2']) expect((await put(item(pk, 'Doomed'))).status).toBe(201);
      const keys = ['d1', 'missing', 'd2'].map((pk) => ({ pk, sk: 's' }));
      const answer = await send(app, 'POST', '/collections/albums/items/batch-delete', JSON.stringify({ keys }));
      expect(answer.status, answer.text).toBe(200);
      expect(answer.plain).toMatchObject({ deleted: 2, failed: [{ index: 1, error: { code: 'item_not_found' } }] });
      expect(await raw('d1')).toBeUndefined();
      expect(await raw('d2')).toBeUndefined();
    });

    it('projects fields on GET and on listings, and pages the same', async () => {
      const service = await startTestService(engine);
      for (let i = 0; i < 7; i++) {
        const body = `{"pk":"f${i}","sk":"s","title":"Field ${i}","year":${2000 + i},"big":"${'x'.repeat(50)}"}`;
        expect((await send(service.app, 'PUT', '/collections/albums-hash/items', body)).status).toBe(201);
      }
      const one = await send(service.app, 'GET', '/collections/albums-hash/item?pk=f1&sk=s&fields=title,year');
      expect(one.body.item).toEqual({ title: 'Field 1', year: expect.anything() });
      expect(one.text).toContain('"year":2001');
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `fields=title&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = await send(service.app, 'GET', `/collections/albums-hash/items?${query}`);
        expect(page.status, page.text).toBe(200);
        for (const entry of page.body.items) expect(Object.keys(entry)).toEqual(['title']);
        seen.push(...titles(page));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `Field ${i}`));
      expect((await send(service.app, 'GET', '/collections/albums-hash/items?fields=a,,b')).status).toBe(400);
    });
  });
}
