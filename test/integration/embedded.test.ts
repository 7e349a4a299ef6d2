import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { stopChild } from '../../devtools/child-process';
import { freePort } from '../../devtools/dynamodb-local';
import { openEnvironment } from '../../src/runtime/open-environment';
import { startNodeServer } from '../support/node-server';

const ROOT = resolve(import.meta.dirname, '../..');

/** `npm start` as a newcomer runs it: no DynamoDB settings, the embedded engine, data on disk. */
function embeddedEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), SHARDLINE_DATA_DIR: dataDir };
  for (const name of ['DYNAMODB_ENDPOINT', 'AWS_REGION', 'AWS_DEFAULT_REGION', 'TABLE_NAME', 'SHARDLINE_CONFIG'])
    delete env[name];
  delete env.CURSOR_SECRET;
  return env;
}

/** `src/runtime/node/main.ts` run to its end: what it printed and its exit code. */
function runToExit(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/runtime/node/main.ts'], { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolveRun({ code, output }));
  });
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  return (await startNodeServer(embeddedEnv(dataDir, port), port)).child;
}

describe('the embedded default', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shardline-data-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves the demo collections on 127.0.0.1 and keeps data across restarts', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let server = await startServer(dataDir, port);
    try {
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ ok: true });
      const names = (
        (await (await fetch(`${base}/collections`)).json()) as { collections: { name: string }[] }
      ).collections.map((c) => c.name);
      expect(names).toEqual(['albums', 'albums-hash', 'albums-random', 'albums-by-year', 'orders']);
      const written = await fetch(`${base}/collections/albums/items`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pk: 'Pink Floyd', sk: 'album#Space Cadet', title: 'Space Cadet' }),
      });
      expect(await written.json()).toMatchObject({ shard: 15, shardKey: 'albums#15' });
    } finally {
      await stopChild(server);
    }
    server = await startServer(dataDir, port);
    try {
      const listing = (await (await fetch(`${base}/collections/albums/items`)).json()) as { items: unknown[] };
      expect(listing.items).toEqual([{ pk: 'Pink Floyd', sk: 'album#Space Cadet', title: 'Space Cadet' }]);
    } finally {
      await stopChild(server);
    }
  });

  it('keeps its cursor secret in the data dir, so a cursor from before a restart resumes after it', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let server = await startServer(dataDir, port);
    let cursor: string;
    let first: unknown;
    try {
      for (const title of ['Animals', 'Meddle', 'Obscured by Clouds']) {
        const body = JSON.stringify({ pk: 'Pink Floyd', sk: `album#${title}`, title });
        const put = await fetch(`${base}/collections/albums-hash/items`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(put.status).toBe(201);
      }
      const page = (await (await fetch(`${base}/collections/albums-hash/items?limit=1`)).json()) as {
        items: { title: string }[];
        nextCursor: string;
      };
      first = page.items[0]?.title;
      cursor = page.nextCursor;
    } finally {
      await stopChild(server);
    }
    expect(first).toBe('Animals');
    expect(statSync(join(dataDir, 'cursor-secret')).mode & 0o777).toBe(0o600);
    server = await startServer(dataDir, port);
    try {
      const next = await fetch(`${base}/collections/albums-hash/items?limit=1&cursor=${encodeURIComponent(cursor)}`);
      expect(next.status).toBe(200);
      expect(((await next.json()) as { items: { title: string }[] }).items.map((i) => i.title)).toEqual(['Meddle']);
    } finally {
      await stopChild(server);
    }
  });

  it('tells a second process which process holds the data dir, and a taken port in one line', async () => {
    const port = await freePort();
    const server = await startNodeServer(embeddedEnv(dataDir, port), port);
    try {
      const second = await runToExit(embeddedEnv(dataDir, await freePort()));
      expect(second.code).toBe(1);
      expect(second.output).toContain(
        `shardline failed to start: the data directory ${dataDir} is in use by process ${server.child.pid} (`,
      );
      expect(second.output).toContain('src/runtime/node/main.ts');
      expect(second.output).not.toMatch(/Database is closed|\n\s+at /);

      const otherDir = mkdtempSync(join(tmpdir(), 'shardline-data-'));
      const taken = await runToExit(embeddedEnv(otherDir, port));
      rmSync(otherDir, { recursive: true, force: true });
      expect(taken.code).toBe(1);
      const lines = taken.output.split('\n').filter((line) => line.startsWith('shardline'));
      expect(lines).toEqual([
        `shardline cannot listen on 127.0.0.1:${port}: the port is already in use (another shardline, or another ` +
          'program). Stop it, or start with PORT set to a free port (PORT=0 picks one).',
      ]);
      expect(taken.output).not.toMatch(/\n\s+at /);
    } finally {
      await stopChild(server.child);
    }
    // The lock goes with the process: the data dir opens again.
    const again = await startServer(dataDir, port);
    await stopChild(again);
  });

  it('closes its engine to all but the data dir: a secret key, owner-only files, address-only endpoint', async () => {
    const fresh = join(dataDir, 'closed');
    const port = await freePort();
    const server = await startServer(fresh, port);
    try {
      const written = await fetch(`http://127.0.0.1:${port}/collections/albums/items`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pk: 'Tangerine Dream', sk: 'album#Phaedra', title: 'Phaedra' }),
      });
      expect(written.status).toBe(201);
      const endpoint = readFileSync(join(fresh, 'shardline-endpoint'), 'utf8');
      expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
      expect(statSync(fresh).mode & 0o777).toBe(0o700);
      const files = readdirSync(fresh, { recursive: true, encoding: 'utf8' });
      expect(files).toContain('engine-secret');
      for (const file of files) expect(statSync(join(fresh, file)).mode & 0o077, file).toBe(0);

      // Any other process that finds the port, with any other key, is refused.
      const other = new DynamoDBClient({
        endpoint: endpoint.trim(),
        region: 'us-east-1',
        credentials: { accessKeyId: 'shardline', secretAccessKey: 'shardline' },
        maxAttempts: 1,
      });
      await expect(other.send(new ListTablesCommand({}))).rejects.toMatchObject({
        name: 'UnrecognizedClientException',
      });
      other.destroy();
      // Tools (reshard, boundaries, follow) read the key from the data dir and get in.
      const tool = await openEnvironment({ SHARDLINE_DATA_DIR: fresh });
      try {
        expect((await tool.dynamo.clients.raw.send(new ListTablesCommand({}))).TableNames).toEqual(['shardline']);
      } finally {
        await tool.close();
      }
    } finally {
      await stopChild(server);
    }
  });

  it('lets tools reach a running server through its engine, or open the data dir when none runs', async () => {
    const port = await freePort();
    const server = await startServer(dataDir, port);
    try {
      const tool = await openEnvironment({ SHARDLINE_DATA_DIR: dataDir });
      expect(tool.where).toBe(`the running server's embedded engine (data in ${dataDir})`);
      await tool.close();
    } finally {
      await stopChild(server);
    }
    const tool = await openEnvironment({ SHARDLINE_DATA_DIR: dataDir });
    try {
      expect(tool.where).toBe(`the embedded engine (data in ${dataDir})`);
      // While a tool has it, a server is told which process that is.
      const blocked = await runToExit(embeddedEnv(dataDir, port));
      expect(blocked.output).toContain(`is in use by process ${process.pid} (`);
    } finally {
      await tool.close();
    }
  });

  it('tells a tool that a running server predates the engine key, instead of a bare ENOENT', async () => {
    const old = join(dataDir, 'old-server');
    mkdirSync(old);
    // An older server: its engine answers at the address in the endpoint file; it wrote no key.
    const engine = createServer((_, response) => response.end('{}'));
    await new Promise<void>((listening) => engine.listen(0, '127.0.0.1', listening));
    const address = engine.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    writeFileSync(join(old, 'shardline-endpoint'), `http://127.0.0.1:${address.port}\n`);
    try {
      await expect(openEnvironment({ SHARDLINE_DATA_DIR: old })).rejects.toThrow(
        /left no engine-secret there .*restart that server with this version/,
      );
    } finally {
      await new Promise((closed) => engine.close(closed));
    }
  });
});
