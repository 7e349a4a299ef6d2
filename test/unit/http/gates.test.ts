import { describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../src/config/config';
import { AdmissionLimit } from '../../../src/core/admission-limit';
import { createApp } from '../../../src/http/app';
import type { Gates } from '../../../src/http/gates';
import { configMaps } from '../../support/config-maps';
import { createShardline } from '../../../src/service/shardline';
import type { Store } from '../../../src/store/store';

const COLLECTIONS = resolveConfig({
  table: { name: 'things', partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'sk', type: 'S' } },
  collections: {
    wide: { field: 'title', strategy: { kind: 'hash', shards: 21 } },
    narrow: { field: 'title', strategy: { kind: 'hash', shards: 2 } },
  },
});

/** A store whose every call but the table's ping waits until `release`. */
function heldStore() {
  let release: () => void = () => {};
  const held = new Promise<void>((resolveHeld) => {
    release = resolveHeld;
  });
  const wait = async (): Promise<never> => {
    await held;
    throw new Error('released');
  };
  const queryShard: Store['queryShard'] = async () => {
    await held;
    return { items: [], itemsRead: 0 };
  };
  const store: Store = {
    queryShard,
    putItem: wait,
    updateItem: wait,
    batchGet: wait,
    getItem: wait,
    deleteItem: wait,
    queryKeyRange: wait,
    ping: async () => {},
  };
  return { store, release: () => release() };
}

function appWith(gates: Gates, store: Store) {
  const shardline = createShardline({ collections: COLLECTIONS, store, maps: configMaps(), cursorSecret: 's' });
  return createApp({ shardline, requestTimeoutMs: 5000, gates });
}

const SHARDS = new Map([['wide', 21]]);
const admission = (shedPauseMs = 0) => ({
  shardCountOf: (collection: string) => SHARDS.get(collection),
  shedPauseMs,
  limit: new AdmissionLimit({ initialLimit: 4, minLimit: 2, maxLimit: 6, latencyTargetMs: 10_000, backoff: 0.5 }),
});

/** A request admitted where it should be shed waits on the held store: fail in seconds, not at the run's bound. */
const FAIL_FAST = { timeout: 10_000 };

describe('admission, inside the app', () => {
  it(
    'sheds a 21-shard listing past the limit with a paced 503 overloaded and Retry-After; probes pass',
    FAIL_FAST,
    async () => {
      const { store, release } = heldStore();
      const app = appWith({ admission: admission(20) }, store);
      const first = app.request('/collections/wide/items');
      const asked = performance.now();
      const shed = await app.request('/collections/wide/items');
      // Held for the pause, so a client that asks again at once cannot spin the server on refusals.
      expect(performance.now() - asked).toBeGreaterThanOrEqual(19);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('1');
      expect(shed.headers.get('content-type')).toBe('application/json');
      expect(await shed.json()).toMatchObject({ error: { code: 'overloaded' } });
      // Before the rest of the app: a refusal costs no request id.
      expect(shed.headers.get('x-request-id')).toBeNull();
      // Any path is counted, an unknown one too; the health check is not.
      expect((await app.request('/nowhere')).status).toBe(503);
      expect((await app.request('/healthz')).status).toBe(200);
      release();
      expect((await first).status).toBe(200);
    },
  );

  it(
    "weighs a GET listing by its map's shards, anything else (the listing path's POST too) as one",
    FAIL_FAST,
    async () => {
      const { store, release } = heldStore();
      const app = appWith({ admission: admission() }, store);
      const item = app.request('/collections/narrow/items/a');
      // 1 in flight: a 21-shard page would pass the limit of 4, a page of an unknown count weighs 1.
      expect((await app.request('/collections/wide/items')).status).toBe(503);
      const unknownCount = app.request('/collections/narrow/items');
      const write = app.request('/collections/wide/items', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'x' }),
      });
      const other = app.request('/collections/narrow/items/b');
      expect((await app.request('/collections/narrow/items/c')).status).toBe(503); // 4 in flight
      release();
      for (const answer of await Promise.all([item, unknownCount, write, other])) expect(answer.status).not.toBe(503);
    },
  );
});

describe('the tables gate, inside the app', () => {
  it('answers 503 with Retry-After until the tables are ready, the API description meanwhile', async () => {
    let ready = false;
    const app = appWith(
      {
        tablesReady: async () => {
          if (!ready) throw new Error('table things is missing');
        },
      },
      heldStore().store,
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const path of ['/collections/narrow/items', '/healthz', '/']) {
      const early = await app.request(path);
      expect(early.status).toBe(503);
      expect(early.headers.get('retry-after')).toBe('1');
      const body = await early.json();
      expect(body).toEqual({ error: { code: 'unavailable', message: expect.stringMatching(/not ready/) } });
      expect(JSON.stringify(body)).not.toContain('things');
    }
    expect((await app.request('/openapi.json')).status).toBe(200);
    expect((await app.request('/docs')).status).toBe(200);
    expect((await app.request('/docs/assets/swagger-ui.css')).status).not.toBe(503);
    expect((await app.request('/docs/assets/nothing.js')).status).toBe(404);
    ready = true;
    expect((await app.request('/healthz')).status).toBe(200);
    vi.restoreAllMocks();
  });
});

describe('the load flush, inside the app', () => {
  it("writes an ended minute after the answer: in the Worker's waitUntil, else before answering", async () => {
    let due = true;
    const flushes: string[] = [];
    const flushLoad = {
      due: () => due,
      flush: async () => {
        flushes.push('flushed');
        due = false;
      },
    };
    const app = appWith({ flushLoad }, heldStore().store);
    const waited: Promise<unknown>[] = [];
    const context = { waitUntil: (work: Promise<unknown>) => void waited.push(work), passThroughOnException() {} };
    expect((await app.fetch(new Request('http://x/openapi.json'), {}, context as never)).status).toBe(200);
    expect(waited).toHaveLength(1);
    await Promise.all(waited);
    expect(flushes).toEqual(['flushed']);
    due = true;
    expect((await app.request('/openapi.json')).status).toBe(200);
    expect(flushes).toHaveLength(2);
    expect((await app.request('/openapi.json')).status).toBe(200);
    expect(flushes).toHaveLength(2);
  });
});
