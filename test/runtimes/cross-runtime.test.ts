import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mountDocsAssets } from '../../src/http/docs/assets';
import { packageDocsAssets } from '../../src/http/docs/file-assets';
import { askOracle, type OracleFilter } from '../support/oracle';
import { startTestService } from '../support/service';
import { ties, variedTitles } from '../support/titles';
import {
  buildLambdaOnce,
  loadLambdaRuntime,
  startNodeServer,
  startWorkerRuntime,
  type RunningRuntime,
} from './support/runtimes';

/**
 * One table in DynamoDB Local, three runtimes over it: the Node server (real HTTP),
 * the Worker in workerd under wrangler's dev server, and the built Lambda bundle.
 * Each signs cursors with its own secret, so each pages on its own.
 */
describe('Node, Worker and Lambda over one DynamoDB Local table', () => {
  const table = `t-${randomUUID()}`;
  let node: RunningRuntime;
  let worker: RunningRuntime;
  let lambda: RunningRuntime;
  const runtimes = () => [node, worker, lambda];

  beforeAll(async () => {
    const endpoint = inject('engines').dynamodbLocal;
    const service = await startTestService('dynamodbLocal', {
      env: { TABLE_NAME: table, CURSOR_SECRET: 'node-secret' },
    });
    mountDocsAssets(service.app, packageDocsAssets()); // as src/runtime/node/main.ts does
    [node, worker, lambda] = await Promise.all([
      startNodeServer(service.app),
      startWorkerRuntime({
        DYNAMODB_ENDPOINT: endpoint,
        TABLE_NAME: table,
        CURSOR_SECRET: 'worker-secret-worker-secret-worker-secret',
      }),
      buildLambdaOnce().then((bundle) =>
        loadLambdaRuntime(bundle, {
          DYNAMODB_ENDPOINT: endpoint,
          AWS_REGION: 'us-east-1',
          TABLE_NAME: table,
          CURSOR_SECRET: 'lambda-secret-lambda-secret-lambda-secret',
          SHARDLINE_CREATE_TABLE: 'false',
        }),
      ),
    ]);
  });
  afterAll(async () => {
    await Promise.all(runtimes().map((runtime) => runtime?.close()));
  });

  // Emoji (astral: UTF-16 surrogates) against U+E000–U+FFFF is where UTF-16 and UTF-8 order disagree.
  const titles = [
    ...variedTitles(160, 4004),
    ...ties('Greatest Hits', 9),
    '\uE000',
    '\uE000🎸',
    '\uEFFF tail',
    '\uFFEE halfwidth',
    '\uFFFD?',
    '\uFFFF',
    '🎸',
    '🎸\uE000',
    '😀 grin',
    '𝄞 clef',
  ];
  const items = titles.map((title, i) => ({
    pk: `artist ${i % 17}`,
    sk: `album#${i}`,
    title,
    n: i,
    nested: { emoji: '🎵', list: [i, null] },
  }));
  const filters: { query: string; oracle: OracleFilter }[] = [
    { query: '', oracle: { kind: 'all' } },
    {
      query: `&from=${encodeURIComponent('\uE000')}&to=${encodeURIComponent('\uFFFF')}`,
      oracle: { kind: 'between', from: '\uE000', to: '\uFFFF' },
    },
    { query: `&prefix=${encodeURIComponent('🎸')}`, oracle: { kind: 'prefix', prefix: '🎸' } },
  ];

  async function readAll(
    runtime: RunningRuntime,
    collection: string,
    order: string,
    filter: string,
  ): Promise<typeof items> {
    const all: typeof items = [];
    let cursor: string | null = null;
    for (let page = 0; page < 200; page++) {
      const path =
        `/collections/${collection}/items?limit=13&order=${order}${filter}` +
        `${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await runtime.request(path);
      const body = (await response.json()) as { items: typeof items; nextCursor: string | null };
      expect(response.status, `${runtime.name} ${path}: ${JSON.stringify(body)}`).toBe(200);
      all.push(...body.items);
      cursor = body.nextCursor;
      if (cursor === null) return all;
    }
    throw new Error(`${runtime.name}: no end of the listing after 200 pages`);
  }

  it('reads through the Worker and the Lambda bundle what the Node server wrote: same items, same order', async () => {
    const oracle = askOracle(
      [''],
      1,
      titles,
      filters.map((filter) => filter.oracle),
    );
    const expectedNormalized = oracle.filters.map((indexes) => indexes.map((index) => oracle.normalized[index]!));
    // The data set holds both sides of the UTF-16/UTF-8 disagreement, and the range filter sees
    // only the U+E000–U+FFFF side.
    expect(expectedNormalized[1]!.length).toBeGreaterThan(5);
    expect(expectedNormalized[1]!.some((value) => value.codePointAt(0)! > 0xffff)).toBe(false);
    expect(expectedNormalized[0]!.filter((value) => value.codePointAt(0)! > 0xffff).length).toBeGreaterThan(5);
    expect(expectedNormalized[2]!.length).toBeGreaterThan(2);

    for (const collection of ['albums', 'albums-hash', 'albums-random']) {
      // One table item belongs to one collection: each collection gets its own primary keys.
      const own = items.map((item) => ({ ...item, pk: `${collection}/${item.pk}` }));
      const written = await node.request(`/collections/${collection}/items/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: own }),
      });
      expect(await written.json()).toEqual({ written: items.length, failed: [] });

      for (const order of ['asc', 'desc']) {
        for (const [f, filter] of filters.entries()) {
          const [fromNode, fromWorker, fromLambda] = await Promise.all(
            runtimes().map((runtime) => readAll(runtime, collection, order, filter.query)),
          );
          const where = `${collection} ${order} ${filter.query || 'all'}`;
          const expected = order === 'asc' ? expectedNormalized[f]! : [...expectedNormalized[f]!].reverse();
          expect(
            fromNode!.map((item) => oracle.normalized[item.n]),
            where,
          ).toEqual(expected);
          expect(fromWorker, `worker: ${where}`).toEqual(fromNode);
          expect(fromLambda, `lambda: ${where}`).toEqual(fromNode);
        }
      }
    }
  });

  const bad: {
    name: string;
    method: string;
    path: string;
    body?: string;
    contentType?: string;
    status: number;
    code?: string;
  }[] = [
    {
      name: 'malformed JSON',
      method: 'PUT',
      path: '/collections/albums/items',
      body: '{"pk": "a", "sk": ',
      status: 400,
      code: 'invalid_json',
    },
    {
      name: 'not JSON content',
      method: 'PUT',
      path: '/collections/albums/items',
      body: 'pk=a',
      contentType: 'text/plain',
      status: 400,
      code: 'invalid_json',
    },
    { name: 'body not an object', method: 'PUT', path: '/collections/albums/items', body: '[1, 2]', status: 400 },
    {
      name: 'missing primary key',
      method: 'PUT',
      path: '/collections/albums/items',
      body: '{"sk": "s", "title": "t"}',
      status: 400,
      code: 'invalid_item',
    },
    {
      name: 'title not a string',
      method: 'PUT',
      path: '/collections/albums/items',
      body: '{"pk": "p", "sk": "s", "title": 42}',
      status: 400,
      code: 'invalid_item',
    },
    {
      name: 'title with a lone surrogate',
      method: 'PUT',
      path: '/collections/albums/items',
      body: '{"pk": "p", "sk": "s", "title": "a\\ud800"}',
      status: 400,
      code: 'invalid_item',
    },
    {
      name: 'title with the separator',
      method: 'PUT',
      path: '/collections/albums/items',
      body: '{"pk": "p", "sk": "s", "title": "a\\u0000b"}',
      status: 400,
    },
    {
      name: 'partition key over 2048 bytes',
      method: 'PUT',
      path: '/collections/albums/items',
      body: JSON.stringify({ pk: '🎸'.repeat(600), sk: 's', title: 't' }),
      status: 400,
      code: 'key_too_large',
    },
    {
      name: 'item over 400 KB',
      method: 'PUT',
      path: '/collections/albums/items',
      body: JSON.stringify({ pk: 'p', sk: 's', title: 't', blob: 'x'.repeat(410_000) }),
      status: 400,
      code: 'item_too_large',
    },
    {
      name: 'unknown collection (write)',
      method: 'PUT',
      path: '/collections/nope/items',
      body: '{"pk": "p", "sk": "s", "title": "t"}',
      status: 404,
      code: 'collection_not_found',
    },
    {
      name: 'empty batch',
      method: 'POST',
      path: '/collections/albums/items/batch',
      body: '{"items": []}',
      status: 400,
    },
    {
      name: 'batch without items',
      method: 'POST',
      path: '/collections/albums/items/batch',
      body: '{"things": [1]}',
      status: 400,
    },
    { name: 'limit 0', method: 'GET', path: '/collections/albums/items?limit=0', status: 400 },
    { name: 'limit 1001', method: 'GET', path: '/collections/albums/items?limit=1001', status: 400 },
    { name: 'limit not a number', method: 'GET', path: '/collections/albums/items?limit=ten', status: 400 },
    { name: 'bad order', method: 'GET', path: '/collections/albums/items?order=sideways', status: 400 },
    {
      name: 'tampered cursor',
      method: 'GET',
      path: '/collections/albums/items?cursor=eyJ0YW1wZXJlZCI6dHJ1ZX0',
      status: 400,
      code: 'invalid_cursor',
    },
    { name: 'two filters', method: 'GET', path: '/collections/albums/items?key=a&prefix=b', status: 400 },
    {
      name: 'unknown collection (read)',
      method: 'GET',
      path: '/collections/nope/items',
      status: 404,
      code: 'collection_not_found',
    },
    { name: 'route without key', method: 'GET', path: '/collections/albums/route', status: 400 },
    { name: 'item by half a key', method: 'GET', path: '/collections/albums/item?pk=only', status: 400 },
    {
      name: 'absent item',
      method: 'GET',
      path: '/collections/albums/item?pk=none&sk=none',
      status: 404,
      code: 'item_not_found',
    },
    { name: 'unknown route', method: 'GET', path: '/nope', status: 404, code: 'route_not_found' },
    { name: 'unknown docs asset', method: 'GET', path: '/docs/assets/nope.js', status: 404, code: 'route_not_found' },
  ];

  it('answers bad input with the same 4xx JSON error in every runtime, and writes nothing', async () => {
    const count = async () =>
      ((await (await node.request('/collections/albums/items?limit=1000')).json()) as { items: unknown[] }).items
        .length;
    const before = await count();
    for (const request of bad) {
      const answers = await Promise.all(
        runtimes().map(async (runtime) => {
          const response = await runtime.request(request.path, {
            method: request.method,
            // One request id for all three: error bodies carry it, and must compare equal.
            headers: {
              'x-request-id': 'cross-runtime-bad-input',
              ...(request.body !== undefined && { 'content-type': request.contentType ?? 'application/json' }),
            },
            ...(request.body !== undefined && { body: request.body }),
          });
          const body = (await response.json()) as { error: { code: string; message: string } };
          return { runtime: runtime.name, status: response.status, type: response.headers.get('content-type'), body };
        }),
      );
      const fromNode = answers[0]!;
      expect(fromNode.status, `${request.name}: ${JSON.stringify(fromNode)}`).toBe(request.status);
      expect(fromNode.type).toMatch(/^application\/json/);
      expect(fromNode.body.error.message).toEqual(expect.any(String));
      if (request.code) expect(fromNode.body.error.code, request.name).toBe(request.code);
      for (const answer of answers.slice(1)) {
        expect({ ...answer, runtime: 'node' }, `${answer.runtime}: ${request.name}`).toEqual(fromNode);
      }
    }
    expect(await count()).toBe(before);
  });
});
