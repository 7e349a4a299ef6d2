import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config';
import { call } from '../support/http';
import { demoConfig, startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

/** Names that are data to DynamoDB and properties to a JavaScript object. */
const ITEM =
  '{"pk":"n1","sk":"s","title":"Names","constructor":"c","prototype":{"constructor":{"toString":[1]},"valueOf":{}},' +
  '"hasOwnProperty":{"$set":[1,2]},"toString":null}';

describe('attribute names are data: constructor, prototype, toString kept exactly; __proto__ refused by name', () => {
  let app: App;
  beforeAll(async () => {
    ({ app } = await startTestService('dynalite'));
  });

  it('round-trips them through PUT, GET, listing, fields=, PATCH, batch and batch-get', async () => {
    const sent = JSON.parse(ITEM);
    const written = await call(app, 'PUT', '/collections/albums/items', ITEM);
    expect(written.status).toBe(201);
    expect(written.body.item).toEqual(sent);
    expect((await call(app, 'GET', '/collections/albums/item?pk=n1&sk=s')).body.item).toEqual(sent);
    expect((await call(app, 'GET', '/collections/albums/items?key=Names')).body.items).toEqual([sent]);
    const projected = await call(
      app,
      'GET',
      '/collections/albums/item?pk=n1&sk=s&fields=constructor,prototype,valueOf',
    );
    expect(projected.body.item).toEqual({ constructor: 'c', prototype: sent.prototype });

    const patch = '{"constructor":null,"prototype":{"valueOf":{"constructor":2}},"toString":{"$binary":"AAE="}}';
    const patched = await call(app, 'PATCH', '/collections/albums/item?pk=n1&sk=s', patch);
    expect(patched.status).toBe(200);
    const { constructor: _gone, ...rest } = sent;
    const expected = {
      ...rest,
      prototype: { constructor: { toString: [1] }, valueOf: { constructor: 2 } },
      toString: { $binary: 'AAE=' },
    };
    expect((await call(app, 'GET', '/collections/albums/item?pk=n1&sk=s')).body.item).toEqual(expected);

    const batch = `{"items":[${ITEM.replace('"n1"', '"n2"')}]}`;
    expect((await call(app, 'POST', '/collections/albums/items/batch', batch)).body).toEqual({
      written: 1,
      failed: [],
    });
    const got = await call(app, 'POST', '/collections/albums/items/batch-get', {
      keys: [{ pk: 'n2', sk: 's' }],
      fields: ['constructor', 'hasOwnProperty'],
    });
    expect(got.body.items).toEqual([{ pk: 'n2', sk: 's', constructor: 'c', hasOwnProperty: { $set: [1, 2] } }]);
  });

  it('refuses __proto__ anywhere in a body with a 400 naming where, before anything is written', async () => {
    const bodies: [string, string, string][] = [
      ['PUT', '/collections/albums/items', '{"pk":"x","sk":"s","title":"T","__proto__":{"a":1}}'],
      ['PUT', '/collections/albums/items', '{"pk":"x","sk":"s","title":"T","m":[{"__proto__":{"$set":["a"]}}]}'],
      ['PUT', '/collections/albums/items', '{"pk":"x","sk":"s","title":"T","__proto__":{"$binary":"AAAA"}}'],
      ['PATCH', '/collections/albums/item?pk=n1&sk=s', '{"m":{"__proto__":null}}'],
      [
        'POST',
        '/collections/albums/items/batch',
        '{"items":[{"pk":"x","sk":"s","title":"T","__proto__":{"$set":[1]}}]}',
      ],
      ['POST', '/collections/albums/items/batch-get', '{"keys":[{"pk":"x","sk":"s","__proto__":"y"}]}'],
    ];
    for (const [method, path, body] of bodies) {
      const answer = await call(app, method, path, body);
      expect(answer.status, `${method} ${body}`).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'invalid_item', attribute: '__proto__' });
    }
    expect((await call(app, 'GET', '/collections/albums/item?pk=x&sk=s')).status).toBe(404);
    const fields = await call(app, 'GET', '/collections/albums/item?pk=n1&sk=s&fields=__proto__');
    expect(fields.status).toBe(400);
    expect(fields.body.error.message).toContain('__proto__');
  });
});

describe('the doors outside a request body', () => {
  it('refuses a collection named __proto__ in the config loudly instead of dropping it', () => {
    const config = demoConfig() as { collections: Record<string, unknown> };
    const text = `{"collections":{"__proto__":${JSON.stringify(config.collections['albums-hash'])}}}`;
    expect(() => resolveConfig(JSON.parse(text))).toThrow(/__proto__/);
  });
});
