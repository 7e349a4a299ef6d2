import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { rawText } from '../support/arbitraries';
import { ENGINES, startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

/** Numbers at and past DynamoDB's limits, as JSON text. */
const numberText = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '1E-130',
    '1E-131',
    '9.9999999999999999999999999999999999999E+125',
    '1E+126',
    '12345678901234567890123456789012345678',
    '123456789012345678901234567890123456789',
    '1e999999999',
    '0.000',
  ),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
);

/** Attribute values in their JSON form, typed markers and near-markers included. */
const value: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    numberText,
    rawText(12).map((s) => JSON.stringify(s)),
    fc.constantFrom('null', 'true', '{}', '[]', '{"$binary":"AAE="}', '{"$binary":"!"}', '{"$binary":1}'),
    fc.constantFrom('{"$set":[]}', '{"$set":["a","a"]}', '{"$set":["a",1]}', '{"$set":[1,1.0]}', '{"$set":"x"}'),
    fc.constantFrom('{"$map":1}', '{"$map":{"$set":1}}', '{"$set":[{"$binary":"AA=="}]}', '{"$set":1,"x":2}'),
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(fc.oneof(rawText(5), fc.constantFrom('$set', '$binary', '$map', 'title', 'pk')), tie('value')), {
        maxLength: 3,
      })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value;

const key = fc
  .record({ pk: fc.oneof(fc.constantFrom('a', 'b', ''), rawText(6)), sk: fc.oneof(fc.constant('s'), rawText(4)) })
  .map((k) => JSON.stringify(k));

const body = fc.oneof(
  value,
  fc.array(fc.oneof(key, value), { maxLength: 8 }).map((keys) => `{"keys":[${keys.join(',')}]}`),
  fc.constantFrom('{"keys":[]}', '{"keys":null}', '{"keys":[{"pk":"a","sk":"s"},{"pk":"a","sk":"s"}]}', '\u00ff'),
  fc.uint8Array({ maxLength: 40 }),
);

const request = fc.record({
  method: fc.constantFrom('PATCH', 'POST', 'PUT', 'DELETE', 'GET'),
  path: fc.constantFrom(
    '/collections/albums/item?pk=a&sk=s',
    '/collections/albums-hash/item?pk=a&sk=s',
    '/collections/albums/item?pk=b&sk=s&fields=title,%24set',
    '/collections/albums/item?pk=a',
    '/collections/albums/items/batch-get',
    '/collections/albums/items/batch-get?fields=',
    '/collections/albums/items/batch-delete',
    '/collections/albums-random/items/batch-delete',
    '/collections/albums/items',
    '/collections/albums/items?fields=title',
  ),
  contentType: fc.constantFrom('application/json', 'application/merge-patch+json', 'text/plain', undefined),
  ifMatch: fc.constantFrom(undefined, '*', '"x"', 'W/"x"', '', '"a", "b"', 'garbage'),
  ifNoneMatch: fc.constantFrom(undefined, '*', '"x"', ''),
  body,
});

describe.each(ENGINES)('PATCH and the batch routes over %s: garbage in, never a 5xx', (engine) => {
  let app: App;
  beforeAll(async () => {
    ({ app } = await startTestService(engine));
    const seed = '{"pk":"a","sk":"s","title":"Seed","tags":{"$set":["x"]},"n":12345678901234567890}';
    const written = await app.request('/collections/albums/items', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: seed,
    });
    expect(written.status).toBe(201);
  });

  it('answers with a JSON 4xx or a 2xx/304, and the item it seeded stays readable', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = {};
        if (r.contentType) headers['content-type'] = r.contentType;
        if (r.ifMatch !== undefined) headers['if-match'] = r.ifMatch;
        if (r.ifNoneMatch !== undefined) headers['if-none-match'] = r.ifNoneMatch;
        const hasBody = r.method !== 'GET';
        const response = await app.request(r.path, { method: r.method, headers, ...(hasBody && { body: r.body }) });
        const text = await response.text();
        statuses.add(response.status);
        expect(
          response.status,
          `${r.method} ${r.path} ${String(r.body).slice(0, 80)} -> ${text.slice(0, 200)}`,
        ).toBeLessThan(500);
        if (response.status >= 400) {
          const parsed = JSON.parse(text) as { error?: { code?: unknown } };
          expect(typeof parsed.error?.code).toBe('string');
        }
      }),
      { numRuns: engine === 'dynalite' ? 400 : 200 },
    );
    // The garbage reached the routes, not only the validators: some requests were served.
    expect(
      [...statuses].some((status) => status < 300),
      [...statuses].join(),
    ).toBe(true);
    expect(statuses).toContain(400);
    // Whatever the garbage did to it, every item the collection holds still reads back as JSON.
    const listing = await app.request('/collections/albums/items?limit=1000');
    expect(listing.status).toBe(200);
  });
});
