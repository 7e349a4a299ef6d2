import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, ShardlineClientError } from '../../../src/client/index';

/** A TCP server that accepts every connection and never says a word. */
async function silentServer(): Promise<{ server: Server; url: string; connections: Socket[] }> {
  const connections: Socket[] = [];
  const server = createServer((socket) => {
    connections.push(socket);
    socket.on('error', () => undefined); // the client hangs up on it
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections };
}

/** How a call fails and how long it took, from its first line (a first fetch loads much synchronously). */
async function failure(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

describe('shardline/client against a service that does not answer', () => {
  const opened: Awaited<ReturnType<typeof silentServer>>[] = [];
  afterEach(async () => {
    for (const { server, connections } of opened.splice(0)) {
      for (const socket of connections) socket.destroy();
      await new Promise((closed) => server.close(closed));
    }
  });

  it('gives up on a server that never answers with a timeout within retryBudgetMs', async () => {
    const silent = await silentServer();
    opened.push(silent);
    const { url, connections } = silent;
    const albums = createClient({ baseUrl: url, retryBudgetMs: 1500 }).collection('albums');
    const { error, ms } = await failure(() => albums.put({ pk: 'a', sk: 'b', title: 't' }, { ifNoneMatch: '*' }));
    expect(error).toBeInstanceOf(ShardlineClientError);
    expect(error).toMatchObject({ code: 'timeout', status: undefined });
    expect(ms, `${ms} ms`).toBeLessThanOrEqual(1500 + 500);
    expect(ms, `${ms} ms`).toBeGreaterThanOrEqual(1400); // it did wait its budget

    // Shorter attempts: each is cut off and asked again, all within the budget.
    const hurried = createClient({ baseUrl: url, retryBudgetMs: 2000, attemptTimeoutMs: 300 });
    const again = await failure(() => hurried.collection('albums').get({ pk: 'a', sk: 'b' }));
    expect(again.error).toMatchObject({ name: 'ShardlineClientError', code: 'timeout' });
    expect(again.ms).toBeLessThanOrEqual(2000 + 500);
    expect(connections.length).toBeGreaterThanOrEqual(1 + 3);
  });

  it('reports a refused connection as network, never a raw TypeError', async () => {
    const { server, url } = await silentServer();
    await new Promise((closed) => server.close(closed)); // nothing listens on that port now
    const albums = createClient({ baseUrl: url, retryBudgetMs: 500 }).collection('albums');
    for (const call of [() => albums.delete({ pk: 'a', sk: 'b' }), () => albums.batchDelete([{ pk: 'a', sk: 'b' }])]) {
      const { error, ms } = await failure(call);
      expect(error).toBeInstanceOf(ShardlineClientError);
      expect(error).toMatchObject({ code: 'network', status: undefined });
      expect((error as Error).message).toMatch(/ECONNREFUSED/);
      expect((error as Error).cause).toBeInstanceOf(TypeError);
      expect(ms).toBeLessThanOrEqual(500 + 500);
    }
    // Batch writes report every item, with the same code.
    const written = await albums.batchPut([{ pk: 'a', sk: 'b', title: 't' }]);
    expect(written).toMatchObject({ written: 0, failed: [{ index: 0, error: { code: 'network' } }] });
  });

  it('reports an answer whose JSON does not parse as invalid_response', async () => {
    const fetch = async () =>
      new Response('{"items": [', { status: 200, headers: { 'content-type': 'application/json' } });
    const albums = createClient({ baseUrl: 'http://s', fetch }).collection('albums');
    const { error } = await failure(() => albums.info());
    expect(error).toBeInstanceOf(ShardlineClientError);
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
  });
});
