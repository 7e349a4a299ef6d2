import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopChild } from '../../devtools/child-process';
import { freePort } from '../../devtools/dynamodb-local';
import { probeOnNewConnection, type ProbeResult } from '../../devtools/new-connection-probe';
import { waitUntilReady } from '../../devtools/wait-until';
import { startOnDynamoDbLocal, type NodeServer } from '../support/node-server';

const ROOT = resolve(import.meta.dirname, '../..');
const LISTING_CONNECTIONS = 1000;
const PROBE_EVERY_MS = 200;
const PROBING_MS = 5000;

/** Probes every 200 ms for `forMs` (each on a new connection), or until `until` settles. */
async function probing(port: number, forMs: number, until?: Promise<unknown>) {
  let done = false;
  const stop = () => {
    done = true;
  };
  void until?.then(stop, stop);
  const probes: ProbeResult[] = [];
  const end = performance.now() + forMs;
  while (!done && performance.now() < end) {
    probes.push(await probeOnNewConnection(port));
    await new Promise((resume) => setTimeout(resume, PROBE_EVERY_MS));
  }
  return probes;
}

/**
 * The Node server as `npm start` runs it, over DynamoDB Local, with HEALTH_PORT: its /healthz answers within
 * 1 s on new connections while 1,000 connections list (from a process of their own, so the prober's event loop
 * measures the server, not the load), and while a 16 MB batch is being parsed and written.
 */
describe('/healthz under overload, on the health port', () => {
  let server: NodeServer;
  let healthPort: number;

  beforeAll(async () => {
    healthPort = await freePort();
    server = await startOnDynamoDbLocal(
      { CURSOR_SECRET: 'health-overload-secret', HEALTH_PORT: String(healthPort) },
      await freePort(),
    );
    await waitUntilReady(() => server.output().includes('shardline health on'), {
      timedOut: () => `no health port: ${server.output()}`,
    });
    const items = Array.from({ length: 500 }, (_, i) => ({ pk: `o${i}`, sk: 'album', title: `Title ${i}` }));
    const seeded = await fetch(`${server.base}/collections/albums-hash/items/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    });
    expect(seeded.status).toBe(200);
  });
  afterAll(async () => server && (await stopChild(server.child)));

  it('answers GET /healthz only, the same answer as the main port (before any load)', async () => {
    const other = await fetch(`http://127.0.0.1:${healthPort}/collections`);
    expect(other.status).toBe(404);
    const main = await (await fetch(`${server.base}/healthz`)).json();
    expect(await (await fetch(`http://127.0.0.1:${healthPort}/healthz`)).json()).toEqual(main);
  });

  it('answers every probe within 1 s while 1,000 connections keep listing', async () => {
    const load = spawn(
      resolve(ROOT, 'node_modules/.bin/autocannon'),
      ['-c', String(LISTING_CONNECTIONS), '-d', '9', '-j', `${server.base}/collections/albums-hash/items?limit=100`],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let report = '';
    load.stdout.on('data', (chunk) => (report += chunk));
    const ended = new Promise((exited) => load.once('exit', exited));
    try {
      await new Promise((resume) => setTimeout(resume, 2500));
      const probes = await probing(healthPort, PROBING_MS);
      expect(probes.length).toBeGreaterThanOrEqual(10);
      expect(probes.filter((p) => p.status !== 200 || p.ms >= 1000)).toEqual([]);
      await ended;
      // The load was real: the server was answering listings (200) and shedding the rest (503) all along.
      const answered = JSON.parse(report) as { '2xx': number; '5xx': number };
      expect(answered['2xx'] + answered['5xx']).toBeGreaterThan(LISTING_CONNECTIONS);
    } finally {
      await stopChild(load);
    }
  });

  it('answers every probe within 1 s while a 16 MB batch is parsed and written', async () => {
    // Numbers are what the lossless parser spends longest on: 1,000 items of 2,000 each, about 16 MB.
    const numbers = Array.from({ length: 2000 }, (_, i) => 1_000_000 + i);
    const items = Array.from({ length: 1000 }, (_, i) => ({ pk: `big${i}`, sk: 'album', numbers }));
    const body = JSON.stringify({ items });
    expect(body.length).toBeGreaterThan(15 * 1024 * 1024);
    expect(body.length).toBeLessThanOrEqual(16 * 1024 * 1024);
    const aborted = new AbortController();
    const batch = fetch(`${server.base}/collections/albums-hash/items/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: aborted.signal,
    }).then((response) => response.arrayBuffer());
    try {
      const probes = await probing(healthPort, PROBING_MS, batch);
      expect(probes.length).toBeGreaterThanOrEqual(3);
      expect(probes.filter((p) => p.status !== 200 || p.ms >= 1000)).toEqual([]);
    } finally {
      aborted.abort();
      await batch.catch(() => undefined);
    }
  });
});
