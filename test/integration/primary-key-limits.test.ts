import { beforeAll, describe, expect, it } from 'vitest';
import { get, put } from '../support/http';
import { ENGINES, startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

for (const engine of ENGINES) {
  describe(`a primary key too long to index is reported as the key, not the ordered field (${engine})`, () => {
    let app: App;
    beforeAll(async () => {
      ({ app } = await startTestService(engine));
    });

    it('refuses a 2 KB pk naming the primary key, and writes nothing', async () => {
      const pk = 'p'.repeat(2048); // within DynamoDB's partition key limit, but the index sort key carries it
      const answer = await put(app, '/collections/albums/items', { pk, sk: 's', title: 'Short' });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('key_too_large');
      expect(answer.body.error.message).toMatch(/^the primary key is too long to index/);
      expect(answer.body.error.message).not.toMatch(/^field "title"/);
      expect((await get(app, `/collections/albums/item?pk=${pk}&sk=s`)).status).toBe(404);
    });

    it('blames the field when the field is long, and a key over its own limit by name', async () => {
      const long = await put(app, '/collections/albums/items', { pk: 'p', sk: 's', title: 'x'.repeat(1100) });
      expect(long.body.error.message).toMatch(/^field "title" is too long to index: .* which takes \d+\)/);
      const over = await put(app, '/collections/albums/items', { pk: 'p'.repeat(2049), sk: 's', title: 'x' });
      expect(over.body.error).toMatchObject({
        code: 'key_too_large',
        message: 'primary key attribute "pk" is 2049 bytes; DynamoDB allows 2048',
      });
    });

    it('refuses key, prefix, from and to too long for a key condition, naming the parameter', async () => {
      // The bound on the index sort key is the value or one byte more: 1,023 bytes fit DynamoDB's 1,024.
      const cases = [
        ['albums', 'key', `key=${'k'.repeat(1024)}`],
        ['albums', 'prefix', `prefix=${'k'.repeat(1025)}`],
        ['albums', 'prefix', `prefix=${'中'.repeat(342)}`], // 1,026 bytes in 342 characters
        ['albums', 'from', `from=${'k'.repeat(1024)}`],
        ['albums', 'to', `to=${'k'.repeat(1024)}`],
        ['albums-by-year', 'from', `key=2000&from=${'k'.repeat(1020)}`],
        ['albums-by-year', 'prefix', `key=2000&prefix=${'k'.repeat(1020)}`],
      ] as const;
      for (const [collection, parameter, query] of cases) {
        const answer = await get(app, `/collections/${collection}/items?${encodeURI(query)}`);
        expect(answer.status, `${collection}?${query.slice(0, 20)}`).toBe(400);
        expect(answer.body.error).toMatchObject({ code: 'invalid_request', parameter, limit: 1023 });
        expect(answer.body.error.message).toMatch(new RegExp(`^${parameter} is \\d+ bytes as indexed; at most 1023`));
      }
      for (const query of ['key', 'prefix', 'from', 'to'].map((name) => `${name}=${'k'.repeat(1023)}`)) {
        expect((await get(app, `/collections/albums/items?${query}`)).status, query).toBe(200);
      }
    });

    it('pages past an item whose index sort key fills all 1,024 bytes', async () => {
      // title + U+0000 + ["p","s"]: 1,014 + 1 + 9 bytes. One byte more is refused.
      const full = { pk: 'p', sk: 's', title: 'a'.repeat(1014) };
      expect((await put(app, '/collections/albums/items', { ...full, title: `${full.title}a` })).status).toBe(400);
      expect((await put(app, '/collections/albums/items', full)).status).toBe(201);
      expect((await put(app, '/collections/albums/items', { pk: 'p', sk: 't', title: 'b' })).status).toBe(201);
      for (const filter of ['', '&prefix=a']) {
        const titles: string[] = [];
        let cursor: string | null = null;
        do {
          const after: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
          const page = await get(app, `/collections/albums/items?limit=1${filter}${after}`);
          expect(page.status, JSON.stringify(page.body)).toBe(200);
          titles.push(...page.body.items.map((item: { title: string }) => item.title));
          cursor = page.body.nextCursor;
        } while (cursor !== null);
        expect(titles).toEqual(filter === '' ? [full.title, 'b'] : [full.title]);
      }
    });
  });
}
