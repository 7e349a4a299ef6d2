import { beforeAll, describe, expect, it } from 'vitest';
import { prometheusExporter } from '../../src/runtime/node/prometheus';
import { checkContract, documentedOperations } from '../support/contract';
import { startTestService } from '../support/service';

type App = Awaited<ReturnType<typeof startTestService>>['app'];

/**
 * Every operation of the OpenAPI document, called for a success and for an error answer, each answer held
 * against the document (test/support/contract.ts); at the end, every success status the document declares
 * must have been answered at least once.
 */
describe('the service answers as its OpenAPI document says', () => {
  let app: App;
  /** `operationId status` of every answer checked. */
  const answered = new Set<string>();

  beforeAll(async () => {
    ({ app } = await startTestService('dynalite', {
      metrics: prometheusExporter,
      env: { SHARDLINE_LOAD_RECORDS: 'true' },
    }));
  });

  /** One request; its answer must conform (the wrapped app throws otherwise, and so does this). */
  const call = async (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) => {
    const response = await app.request(path, {
      method,
      headers: { ...(init.body !== undefined && { 'content-type': 'application/json' }), ...init.headers },
      ...(init.body !== undefined && { body: init.body }),
    });
    const text = await response.text();
    const result = await checkContract(method, path, response.status, response.headers.get('content-type'), text);
    expect(result.problems, `${method} ${path} ${response.status}`).toEqual([]);
    if (result.operation) answered.add(`${result.operation.operationId} ${response.status}`);
    return { status: response.status, headers: response.headers, text };
  };
  const expectStatus = async (
    status: number,
    method: string,
    path: string,
    init?: { body?: string; headers?: Record<string, string> },
  ) => {
    const answer = await call(method, path, init);
    expect(answer.status, `${method} ${path}: ${answer.text.slice(0, 300)}`).toBe(status);
    return answer;
  };
  const item = (pk: string, title: string, extra = '') => `{"pk":"${pk}","sk":"s","title":"${title}"${extra}}`;

  it('the health check, the links, the document and the docs page', async () => {
    await expectStatus(200, 'GET', '/healthz');
    await expectStatus(400, 'GET', '/healthz?nope=1');
    await expectStatus(200, 'GET', '/');
    await expectStatus(302, 'GET', '/', { headers: { accept: 'text/html' } });
    await expectStatus(400, 'GET', '/?nope=1');
    await expectStatus(200, 'GET', '/openapi.json');
    await expectStatus(400, 'GET', '/openapi.json?nope=1');
    await expectStatus(200, 'GET', '/docs');
    await expectStatus(400, 'GET', '/docs?nope=1');
  });

  it('collections and key routes', async () => {
    await expectStatus(200, 'GET', '/collections');
    await expectStatus(400, 'GET', '/collections?nope=1');
    for (const name of ['albums', 'albums-hash', 'albums-random', 'albums-by-year', 'orders']) {
      await expectStatus(200, 'GET', `/collections/${name}`);
    }
    await expectStatus(404, 'GET', '/collections/nope');
    await expectStatus(400, 'GET', '/collections/albums?nope=1');
    await expectStatus(200, 'GET', '/collections/albums/route?key=Leaving%20Home');
    await expectStatus(200, 'GET', '/collections/albums-random/route?key=x');
    await expectStatus(400, 'GET', '/collections/albums/route');
    await expectStatus(404, 'GET', '/collections/nope/route?key=x');
  });

  it('writes, reads, listings and conditional writes of one item', async () => {
    const created = await expectStatus(201, 'PUT', '/collections/albums/items', {
      body: item('c1', 'Contract', ',"year":1999,"big":12345678901234567890123'),
    });
    const etag = created.headers.get('etag') ?? '';
    await expectStatus(400, 'PUT', '/collections/albums/items', { body: '{"pk":' });
    await expectStatus(404, 'PUT', '/collections/nope/items', { body: item('c1', 'Contract') });
    await expectStatus(412, 'PUT', '/collections/albums/items', {
      body: item('c1', 'Contract'),
      headers: { 'if-none-match': '*' },
    });
    await expectStatus(409, 'PUT', '/collections/albums-hash/items', { body: item('c1', 'Contract') });
    await expectStatus(413, 'PUT', '/collections/albums/items', {
      body: item('c-big', 'Big', `,"blob":"${'x'.repeat(1024 * 1024 + 1)}"`),
    });

    await expectStatus(200, 'GET', '/collections/albums/items?limit=5');
    await expectStatus(200, 'GET', '/collections/albums/items?prefix=contr&fields=title,big');
    await expectStatus(200, 'GET', '/collections/albums-by-year/items?limit=2&order=desc');
    await expectStatus(400, 'GET', '/collections/albums/items?limit=0');
    await expectStatus(400, 'GET', '/collections/albums/items?cursor=garbage');
    await expectStatus(404, 'GET', '/collections/nope/items');

    await expectStatus(200, 'GET', '/collections/albums/item?pk=c1&sk=s');
    await expectStatus(200, 'GET', '/collections/albums/item?pk=c1&sk=s&fields=title');
    await expectStatus(304, 'GET', '/collections/albums/item?pk=c1&sk=s', { headers: { 'if-none-match': etag } });
    await expectStatus(400, 'GET', '/collections/albums/item?pk=c1');
    await expectStatus(404, 'GET', '/collections/albums/item?pk=none&sk=s');
    await expectStatus(404, 'GET', '/collections/nope/item?pk=c1&sk=s');

    const patched = await expectStatus(200, 'PATCH', '/collections/albums/item?pk=c1&sk=s', {
      body: '{"year":2001}',
      headers: { 'if-match': etag },
    });
    await expectStatus(412, 'PATCH', '/collections/albums/item?pk=c1&sk=s', {
      body: '{"year":2002}',
      headers: { 'if-match': etag },
    });
    await expectStatus(400, 'PATCH', '/collections/albums/item?pk=c1&sk=s', { body: '{"pk":"other"}' });
    await expectStatus(404, 'PATCH', '/collections/albums/item?pk=none&sk=s', { body: '{"year":1}' });
    await expectStatus(409, 'PATCH', '/collections/albums-hash/item?pk=c1&sk=s', { body: '{"year":1}' });

    await expectStatus(412, 'DELETE', '/collections/albums/item?pk=c1&sk=s', { headers: { 'if-match': etag } });
    await expectStatus(409, 'DELETE', '/collections/albums-hash/item?pk=c1&sk=s');
    await expectStatus(400, 'DELETE', '/collections/albums/item?sk=s');
    await expectStatus(204, 'DELETE', '/collections/albums/item?pk=c1&sk=s', {
      headers: { 'if-match': patched.headers.get('etag') ?? '' },
    });
    await expectStatus(404, 'DELETE', '/collections/albums/item?pk=c1&sk=s');
  });

  it('batches', async () => {
    const items = JSON.stringify({
      items: [
        { pk: 'b1', sk: 's', title: 'One', n: 1.5 },
        { pk: 'b2', sk: 's', title: 'Two' },
      ],
    });
    await expectStatus(200, 'POST', '/collections/albums/items/batch', { body: items });
    await expectStatus(400, 'POST', '/collections/albums/items/batch', { body: '{"items":[]}' });
    await expectStatus(404, 'POST', '/collections/nope/items/batch', { body: items });

    const keys = '{"keys":[{"pk":"b1","sk":"s"},{"pk":"none","sk":"s"}]}';
    await expectStatus(200, 'POST', '/collections/albums/items/batch-get', { body: keys });
    await expectStatus(200, 'POST', '/collections/albums/items/batch-get?fields=title', { body: keys });
    await expectStatus(400, 'POST', '/collections/albums/items/batch-get', { body: '{"keys":[]}' });
    await expectStatus(404, 'POST', '/collections/nope/items/batch-get', { body: keys });
    await expectStatus(413, 'POST', '/collections/albums/items/batch-get', {
      body: `{"keys":[{"pk":"${'x'.repeat(16 * 1024 * 1024)}","sk":"s"}]}`,
    });

    await expectStatus(200, 'POST', '/collections/albums/items/batch-delete', { body: keys });
    await expectStatus(400, 'POST', '/collections/albums/items/batch-delete', { body: '{"keys":"no"}' });
    await expectStatus(404, 'POST', '/collections/nope/items/batch-delete', { body: keys });
  });

  it("a grouped collection's group listing and group", async () => {
    const order = '{"pk":"o1","sk":"s","customerId":"c#1/2","orderDate":"2026-03-01","total":42.5}';
    await expectStatus(201, 'PUT', '/collections/orders/items', { body: order });
    await expectStatus(400, 'PUT', '/collections/orders/items', {
      body: '{"pk":"o2","sk":"s","orderDate":"2026-03-01"}',
    });
    await expectStatus(200, 'GET', '/collections/orders/groups/c%231%2F2/items?limit=5&order=desc&fields=total');
    await expectStatus(200, 'GET', '/collections/orders/groups/c%231%2F2/items?from=2026-01-01&to=2026-12-31');
    await expectStatus(400, 'GET', '/collections/orders/groups/c1/items?limit=0');
    await expectStatus(400, 'GET', '/collections/orders/items');
    await expectStatus(400, 'GET', '/collections/albums/groups/x/items');
    await expectStatus(404, 'GET', '/collections/nope/groups/x/items');
    await expectStatus(200, 'GET', '/collections/orders/groups/c%231%2F2');
    await expectStatus(400, 'GET', '/collections/albums/groups/x');
    await expectStatus(400, 'GET', '/collections/orders/groups/x?nope=1');
    await expectStatus(404, 'GET', '/collections/nope/groups/x');
  });

  it('metrics, statistics and the heat page', async () => {
    await expectStatus(200, 'GET', '/metrics');
    await expectStatus(400, 'GET', '/metrics?nope=1');
    for (const name of ['albums', 'albums-hash', 'albums-by-year']) {
      await expectStatus(200, 'GET', `/collections/${name}/stats`);
    }
    await expectStatus(404, 'GET', '/collections/nope/stats');
    await expectStatus(400, 'GET', '/collections/albums/stats?nope=1');
    await expectStatus(200, 'GET', '/collections/albums/heat');
    await expectStatus(404, 'GET', '/collections/nope/heat');
  });

  it("the fleet's load", async () => {
    for (const name of ['albums', 'albums-by-year'])
      await expectStatus(200, 'GET', `/collections/${name}/load?minutes=5`);
    await expectStatus(400, 'GET', '/collections/albums/load?minutes=0');
    await expectStatus(404, 'GET', '/collections/nope/load');
  });

  it("declares every header a listing sends beyond those every answer carries, on the listing's 200", async () => {
    await expectStatus(201, 'PUT', '/collections/albums/items', { body: item('h1', 'Headers') });
    const listing = await expectStatus(200, 'GET', '/collections/albums/items?limit=5');
    const everyAnswer = new Set((await expectStatus(200, 'GET', '/collections')).headers.keys());
    const own = [...listing.headers.keys()].filter((name) => !everyAnswer.has(name));
    expect(own).toEqual(expect.arrayContaining(['x-shard-queries', 'x-shard-hedges', 'server-timing']));
    const document = JSON.parse((await call('GET', '/openapi.json')).text);
    const declared = Object.keys(document.paths['/collections/{collection}/items'].get.responses['200'].headers);
    expect(own.filter((name) => !declared.includes(name))).toEqual([]);
  });

  it('refuses what it does not describe the way it refuses an unknown route', async () => {
    await expectStatus(404, 'GET', '/nope');
    await expectStatus(405, 'DELETE', '/collections');
  });

  it('answered every success status the document declares, and an error of every operation', async () => {
    const operations = await documentedOperations();
    const missing = operations.flatMap(({ operationId, statuses }) =>
      statuses
        .filter((status) => /^[23]\d\d$/.test(status) && !answered.has(`${operationId} ${status}`))
        .map((status) => `${operationId} ${status}`),
    );
    expect(missing, 'success statuses never answered').toEqual([]);
    const withoutError = operations
      .filter(({ operationId }) => ![...answered].some((seen) => new RegExp(`^${operationId} [45]\\d\\d$`).test(seen)))
      .map(({ operationId }) => operationId);
    expect(withoutError, 'operations never answered with an error').toEqual([]);
  });
});
