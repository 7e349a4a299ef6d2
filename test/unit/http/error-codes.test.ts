import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { internalError, ShardlineError } from '../../../src/core/errors';
import { createApp } from '../../../src/http/app';
import { configMaps } from '../../support/config-maps';
import { createShardline } from '../../../src/service/shardline';
import { DEFAULT_RETRY_POLICY, withRetries } from '../../../src/store/retry';
import type { Store } from '../../../src/store/store';

const collections = resolveConfig({
  collections: { albums: { field: 'title', strategy: { kind: 'hash', shards: 4 } } },
});

/** DynamoDB refusing a call as the SDK throws it, through the store's one door (translated there). */
function refusedBy(name: string, message: string): Promise<never> {
  const sdkError = Object.assign(new Error(message), { name, $metadata: { httpStatusCode: 400 } });
  return withRetries('a test call', { operation: 'put' }, {}, () => Promise.reject(sdkError), DEFAULT_RETRY_POLICY);
}

/** The app over a store whose every call fails as `fail` says. */
function appFailingWith(fail: () => Promise<never>) {
  const store: Store = {
    queryShard: fail,
    putItem: fail,
    updateItem: fail,
    batchGet: fail,
    getItem: fail,
    deleteItem: fail,
    queryKeyRange: fail,
    ping: fail,
  };
  const shardline = createShardline({ collections, store, maps: configMaps(), cursorSecret: 's' });
  return createApp({ shardline, requestTimeoutMs: 1000 });
}

/** An error answer, or a batch's. */
interface Answer {
  readonly error: { readonly code: string; readonly message: string };
  readonly failed: unknown[];
}

async function send(app: ReturnType<typeof createApp>, method: string, path: string, body?: unknown) {
  const init = body === undefined ? { method } : { method, body: JSON.stringify(body) };
  const response = await app.request(path, { ...init, headers: { 'content-type': 'application/json' } });
  return { status: response.status, body: (await response.json()) as Answer };
}

describe('the one error type on the wire', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers an internal error bare, its message and cause for the log alone', async () => {
    const app = appFailingWith(async () => {
      throw internalError('the shard page held a key of no type (key sk-123)', new TypeError('x is undefined'));
    });
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')));
    const { status, body } = await send(app, 'GET', '/collections/albums/items?limit=5');
    expect(status).toBe(500);
    expect(body.error).toEqual({ code: 'internal', message: 'internal error', requestId: expect.any(String) });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('TypeError: x is undefined');
    expect(logged[0]).not.toContain('sk-123');
  });

  it('answers a DynamoDB refusal with no code of its own as internal, the SDK error in the log', async () => {
    const app = appFailingWith(() => refusedBy('AccessDeniedException', 'not authorized to perform: dynamodb:Query'));
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')));
    const { status, body } = await send(app, 'GET', '/collections/albums/items?limit=5');
    expect([status, body.error.code, body.error.message]).toEqual([500, 'internal', 'internal error']);
    expect(logged[0]).toContain('AccessDeniedException: not authorized to perform: dynamodb:Query');
  });

  it('reports such a refusal per item in a batch as before: rejected puts, unavailable deletes', async () => {
    const app = appFailingWith(() => refusedBy('AccessDeniedException', 'not authorized'));
    const put = await send(app, 'POST', '/collections/albums/items/batch', {
      items: [{ pk: 'a', sk: 'a', title: 'A' }],
    });
    expect(put.body.failed).toEqual([
      { index: 0, error: { code: 'rejected', message: 'DynamoDB refused the write: not authorized' } },
    ]);
    const deleted = await send(app, 'POST', '/collections/albums/items/batch-delete', { keys: [{ pk: 'a', sk: 'a' }] });
    expect(deleted.body.failed).toEqual([
      { index: 0, error: { code: 'unavailable', message: 'AccessDeniedException: not authorized' } },
    ]);
  });

  it('makes an item DynamoDB refuses in a batch `rejected`, in its words', async () => {
    const app = appFailingWith(() =>
      Promise.reject(new ShardlineError('invalid_item', 'DynamoDB refused the item: big')),
    );
    const put = await send(app, 'POST', '/collections/albums/items/batch', {
      items: [{ pk: 'a', sk: 'a', title: 'A' }],
    });
    expect(put.body.failed).toEqual([
      { index: 0, error: { code: 'rejected', message: 'DynamoDB refused the item: big' } },
    ]);
  });

  it('answers a probe whose table check DynamoDB refused with a 503, not a 500', async () => {
    const app = appFailingWith(() => refusedBy('AccessDeniedException', 'not authorized'));
    const { status, body } = await send(app, 'GET', '/healthz');
    expect([status, body.error.code, body.error.message]).toEqual([
      503,
      'unavailable',
      'the service cannot serve: not authorized',
    ]);
  });
});
