import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stopChild } from '../../devtools/child-process';
import { freePort } from '../../devtools/dynamodb-local';
import { startNodeServer } from '../support/node-server';

/** `npm start` as a newcomer runs it: no DynamoDB settings, the embedded engine, data on disk. */
async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), SHARDLINE_DATA_DIR: dataDir };
  for (const name of ['DYNAMODB_ENDPOINT', 'AWS_REGION', 'AWS_DEFAULT_REGION', 'TABLE_NAME', 'SHARDLINE_CONFIG'])
    delete env[name];
  return (await startNodeServer(env, port)).child;
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
      expect(names).toEqual(['albums', 'albums-hash', 'albums-random']);
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
});
