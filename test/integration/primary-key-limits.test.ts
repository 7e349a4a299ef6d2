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
  });
}
