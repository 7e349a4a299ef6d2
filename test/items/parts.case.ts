import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { EngineEndpoints } from '../support/global-setup';
import { startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';
import { partsConfig, profile } from './parts-support';
import { send } from './support';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

const wcu = (answer: { headers: Headers }) => Number(answer.headers.get('x-consumed-wcu'));
const rcu = (answer: { headers: Headers }) => Number(answer.headers.get('x-consumed-rcu'));

/**
 * Entities in parts (docs/api.md) over an engine. DynamoDB Local reports consumed capacity as DynamoDB
 * does; dynalite reports the table's units only, which keeps every bound below true there too.
 */
export function definePartsSuite(engine: keyof EngineEndpoints): void {
  describe(`entities in parts over ${engine}`, () => {
    let app: App;
    let table: string;
    const rows = () => scanTable(inject('engines')[engine], table);
    const put = (collection: string, body: unknown) =>
      send(app, 'PUT', `/collections/${collection}/items`, JSON.stringify(body));
    const item = (collection: string, id: string, query = '') =>
      `/collections/${collection}/item?pk=${encodeURIComponent(id)}&sk=profile${query}`;

    beforeAll(async () => {
      ({ app, table } = await startTestService(engine, { config: partsConfig() }));
    });

    it("the seed's case: an e-mail change costs its part, not the 150 KB entity", async () => {
      // The same entity as one item, in a collection without parts (another key: one table holds both).
      const whole = { ...profile('seed-whole', 150), title: 'Seed one' };
      delete (whole as { name?: string }).name;
      expect((await put('albums', whole)).status).toBe(201);
      expect((await put('profiles', profile('seed-1', 150))).status).toBe(201);

      const asOneItem = await send(app, 'PATCH', item('albums', 'seed-whole'), '{"email":"new@example.com"}');
      expect(asOneItem.status).toBe(200);
      expect(wcu(asOneItem)).toBeGreaterThanOrEqual(147);
      const inParts = await send(app, 'PATCH', item('profiles', 'seed-1'), '{"email":"new@example.com"}');
      expect(inParts.status, inParts.text).toBe(200);
      expect(wcu(inParts)).toBeLessThanOrEqual(6);
      // The answer carries the root and the touched part, not the 150 KB profile.
      expect(inParts.text.length).toBeLessThan(1000);
      expect(inParts.body.item.email).toBe('new@example.com');
      expect(inParts.body.item.bio).toBeUndefined();

      const oneField = await send(app, 'GET', item('albums', 'seed-whole', '&fields=email'));
      expect(rcu(oneField)).toBeGreaterThanOrEqual(18);
      const onePart = await send(app, 'GET', item('profiles', 'seed-1', '&fields=email'));
      expect(onePart.status).toBe(200);
      expect(onePart.plain.item).toEqual({ email: 'new@example.com' });
      expect(rcu(onePart)).toBeLessThanOrEqual(1);

      const read = await send(app, 'GET', item('profiles', 'seed-1'));
      expect(read.plain.item).toEqual({ ...profile('seed-1', 150), email: 'new@example.com' });
      expect(read.headers.get('etag')).toBe(inParts.headers.get('etag'));
    });

    it('entities of 1 MB and 3 MB round-trip exactly; 17.5 MB is a 413 and the server stays up', async () => {
      for (const [id, kb] of [
        ['big-1', 1024],
        ['big-3', 3072],
      ] as const) {
        // Digits a double would lose, a trailing zero, a set and binary: the part keeps them exactly.
        const cart =
          '{"items":[1,2.50,{"n":123456789012345678901234567890}],"tags":{"$set":["a","b"]},"raw":{"$binary":"AAEC"}}';
        const text = JSON.stringify(profile(id, kb, { cart: 'CART' })).replace('"CART"', cart);
        expect((await send(app, 'PUT', '/collections/profiles/items', text)).status).toBe(201);
        const read = await send(app, 'GET', item('profiles', id));
        expect(read.status).toBe(200);
        expect(read.text).toContain(`"cart":${cart}`);
        expect(read.plain.item).toEqual(JSON.parse(text));
      }
      // 17.5 MB is past the body limit of a collection in parts; 16.6 MiB within it but past the entity's.
      const huge = await put('profiles', profile('huge', 17.5 * 1024));
      expect(huge.status).toBe(413);
      expect(huge.plain.error.limitBytes).toBe(17 * 1024 * 1024);
      const over = await put('profiles', profile('over', 16.6 * 1024));
      expect(over.status).toBe(413);
      expect(over.plain.error.message).toContain('at most 16777216 (16 MiB)');
      expect((await rows()).filter((row) => row.pk === 'huge' || row.pk === 'over')).toEqual([]);
      expect((await send(app, 'GET', item('profiles', 'big-1', '&fields=name'))).status).toBe(200);
    });

    it('two concurrent PATCHes to different parts both land, 20 times in 20', async () => {
      expect((await put('profiles', profile('race', 20))).status).toBe(201);
      for (let round = 0; round < 20; round++) {
        const [a, b] = await Promise.all([
          send(app, 'PATCH', item('profiles', 'race'), JSON.stringify({ email: `e${round}@x` })),
          send(app, 'PATCH', item('profiles', 'race'), JSON.stringify({ cart: { round } })),
        ]);
        expect([a.status, b.status]).toEqual([200, 200]);
        const read = await send(app, 'GET', item('profiles', 'race', '&fields=email,cart'));
        expect(read.plain.item).toEqual({ email: `e${round}@x`, cart: { round } });
      }
    });

    it('lists roots once each in order, part attributes when fields asks; index attributes on roots only', async () => {
      const ids = Array.from({ length: 120 }, (_, i) => `list-${String(i).padStart(3, '0')}`);
      await Promise.all(
        ids.map(async (id, i) => {
          const answer = await put('profiles', { ...profile(id, [1, 40, 420][i % 3]!), name: `List ${id}` });
          expect(answer.status).toBe(201);
        }),
      );
      const names: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await send(
          app,
          'GET',
          `/collections/profiles/items?prefix=list&limit=50${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(page.status).toBe(200);
        for (const entity of page.plain.items) {
          expect(entity.bio).toBeUndefined();
          expect(entity.email).toBeUndefined();
          names.push(entity.name);
        }
        cursor = page.plain.nextCursor;
      } while (cursor);
      expect(names).toEqual(ids.map((id) => `List ${id}`));
      const withEmail = await send(app, 'GET', '/collections/profiles/items?prefix=list&limit=120&fields=name,email');
      expect(withEmail.plain.items.map((e: { email: string }) => e.email)).toEqual(
        ids.map((id) => `${id}@example.com`),
      );
      const stored = await rows();
      const indexed = stored.filter((row) => row.gsi1pk !== undefined && String(row.gsi1pk).startsWith('profiles#'));
      expect(indexed.every((row) => row.sk === 'profile')).toBe(true);
      expect(stored.filter((row) => row._partOf !== undefined).every((row) => row.gsi1pk === undefined)).toBe(true);
    });

    it('If-Match and If-None-Match: * hold the ETag of the whole entity', async () => {
      const created = await send(app, 'PUT', '/collections/profiles/items', JSON.stringify(profile('etag', 5)), {
        'if-none-match': '*',
      });
      expect(created.status).toBe(201);
      const again = await send(app, 'PUT', '/collections/profiles/items', JSON.stringify(profile('etag', 5)), {
        'if-none-match': '*',
      });
      expect(again.status).toBe(412);
      const etag = created.headers.get('etag')!;
      const stale = await send(app, 'PATCH', item('profiles', 'etag'), '{"bio":"short"}', { 'if-match': '"stale"' });
      expect(stale.status).toBe(412);
      // A change to a part changes the entity's ETag.
      const patched = await send(app, 'PATCH', item('profiles', 'etag'), '{"bio":"short"}', { 'if-match': etag });
      expect(patched.status).toBe(200);
      expect(patched.headers.get('etag')).not.toBe(etag);
      const gone = await send(app, 'DELETE', item('profiles', 'etag'), undefined, { 'if-match': etag });
      expect(gone.status).toBe(412);
      expect((await send(app, 'GET', item('profiles', 'etag', '&fields=bio'))).plain.item).toEqual({ bio: 'short' });
    });

    it('batch write, batch-get with fields and batch-delete take whole entities', async () => {
      const ids = ['batch-a', 'batch-b', 'batch-c'];
      const written = await send(
        app,
        'POST',
        '/collections/profiles/items/batch',
        JSON.stringify({ items: ids.map((id) => profile(id, 30)) }),
      );
      expect(written.plain).toEqual({ written: 3, failed: [] });
      const keys = [...ids, 'batch-none'].map((pk) => ({ pk, sk: 'profile' }));
      const got = await send(
        app,
        'POST',
        '/collections/profiles/items/batch-get',
        JSON.stringify({ keys, fields: ['email'] }),
      );
      expect(got.plain.items).toEqual(ids.map((pk) => ({ pk, sk: 'profile', email: `${pk}@example.com` })));
      expect(got.plain.missing).toEqual([{ pk: 'batch-none', sk: 'profile' }]);
      const deleted = await send(app, 'POST', '/collections/profiles/items/batch-delete', JSON.stringify({ keys }));
      expect(deleted.plain.deleted).toBe(3);
      expect((await rows()).filter((row) => String(row.pk).startsWith('batch-'))).toEqual([]);
    });

    it('DELETE leaves no item of the entity', async () => {
      expect((await put('profiles', profile('gone', 900, { cart: [1] }))).status).toBe(201);
      expect((await rows()).filter((row) => row.pk === 'gone').length).toBeGreaterThan(3);
      const deleted = await send(app, 'DELETE', item('profiles', 'gone'));
      expect(deleted.status).toBe(204);
      expect((await rows()).filter((row) => row.pk === 'gone')).toEqual([]);
      expect((await send(app, 'GET', item('profiles', 'gone'))).status).toBe(404);
    });
  });
}
