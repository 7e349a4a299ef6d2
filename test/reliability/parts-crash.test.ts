import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../devtools/dynamodb-local';
import { partRefs } from '../../src/core/parts';
import { sweepParts } from '../../src/service/parts/sweep-parts';
import { partsConfig, profile } from '../items/parts-support';
import { startDynamoProxy, type DynamoProxy } from '../support/dynamo-proxy';
import { startNodeServer, type NodeServer } from '../support/node-server';
import { startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';

type Service = Awaited<ReturnType<typeof startTestService>>;

/**
 * Writes (PutItem, DeleteItem) of a 2.5 MB replace that changes two parts: 9 chunks staged (8 of the
 * profile, 1 of the cart) in parallel, the root switched (the 10th), then 9 old chunks removed.
 * `land`: the write at `killAt` reaches the engine before the kill; `sees`: what a read after it shows.
 */
const MOMENTS = [
  { name: 'while staging the new chunks', killAt: 2, land: false, sees: 'old' },
  { name: 'with every new chunk staged, before the root', killAt: 9, land: true, sees: 'old' },
  { name: 'with the root switched, its answer lost', killAt: 10, land: true, sees: 'new' },
  { name: 'while removing the old chunks', killAt: 13, land: true, sees: 'new' },
  { name: 'at the last old chunk', killAt: 19, land: false, sees: 'new' },
] as const;

/**
 * A writer killed (SIGKILL) at five moments of replacing a 2.5 MB entity in parts: after a restart
 * every read is the whole old entity or the whole new one, and once the sweep has run no chunk is
 * left that no root names (docs/api.md, "Entities in parts").
 */
describe('entities in parts: a writer killed half way', () => {
  let service: Service;
  let dir: string;
  let proxy: DynamoProxy;
  let decide: (operation: string, body: Record<string, unknown>) => 'forward' | 'drop' | 'land-then-kill';
  const servers: NodeServer[] = [];
  const engine = () => inject('engines').dynamodbLocal;

  const start = async (endpoint: string) => {
    const server = await startNodeServer(
      {
        ...process.env,
        DYNAMODB_ENDPOINT: endpoint,
        TABLE_NAME: service.table,
        CURSOR_SECRET: 'parts-crash-secret',
        SHARDLINE_CONFIG: join(dir, 'config.json'),
        AWS_ACCESS_KEY_ID: 'shardline',
        AWS_SECRET_ACCESS_KEY: 'shardline',
      },
      await freePort(),
    );
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    const config = partsConfig() as { collections: { albums: { strategy: { boundariesFile: string } } } };
    // The boundaries file by its absolute path: the config is read from a directory of its own.
    const albums = config.collections.albums.strategy;
    albums.boundariesFile = resolve(import.meta.dirname, '../../config', albums.boundariesFile);
    dir = mkdtempSync(join(tmpdir(), 'parts-crash-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    service = await startTestService('dynamodbLocal', { config });
    proxy = await startDynamoProxy(engine(), ({ operation, body }) => {
      const verdict = decide(operation, body);
      if (verdict === 'drop') return { kind: 'drop' };
      return { kind: 'forward', ...(verdict === 'land-then-kill' && { dropAnswer: true }) };
    });
  });

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await proxy?.close();
  });

  for (const [index, moment] of MOMENTS.entries()) {
    it(`killed ${moment.name}: old or new, never a mix; the sweep leaves no orphan`, async () => {
      const id = `crash-${index}`;
      const old = profile(id, 2560, { cart: { version: 'old' } });
      const next = { ...profile(id, 2560, { cart: { version: 'new' } }), bio: 'n'.repeat(2560 * 1024 - 300) };
      let writes = 0;
      decide = () => 'forward';
      const writer = await start(proxy.endpoint);
      const first = await fetch(`${writer.base}/collections/profiles/items`, {
        method: 'PUT',
        body: JSON.stringify(old),
        headers: { 'content-type': 'application/json' },
      });
      expect(first.status).toBe(201);

      decide = (operation) => {
        if (operation !== 'PutItem' && operation !== 'DeleteItem') return 'forward';
        writes++;
        if (writes < moment.killAt) return 'forward';
        writer.child.kill('SIGKILL');
        return writes === moment.killAt && moment.land ? 'land-then-kill' : 'drop';
      };
      await fetch(`${writer.base}/collections/profiles/items`, {
        method: 'PUT',
        body: JSON.stringify(next),
        headers: { 'content-type': 'application/json' },
      }).catch(() => undefined);
      // Answered before the moment came (it must not): stopped all the same, and the count below fails.
      if (writes < moment.killAt) writer.child.kill('SIGKILL');
      // Killed by a signal, a child's exitCode stays null: its signalCode says it has already exited.
      const { child } = writer;
      await new Promise((done) => {
        child.once('exit', done);
        if (child.exitCode !== null || child.signalCode !== null) done(undefined);
      });
      await proxy.idle();
      expect(writes).toBeGreaterThanOrEqual(moment.killAt);

      const reader = await start(engine());
      const read = await (await fetch(`${reader.base}/collections/profiles/item?pk=${id}&sk=profile`)).json();
      const seen = (read as { item: Record<string, unknown> }).item;
      expect([old, next].some((version) => JSON.stringify(version) === JSON.stringify(sortedLike(version, seen)))).toBe(
        true,
      );
      // The root switched exactly when its write landed.
      expect((seen.cart as { version: string }).version).toBe(moment.sees);
      reader.child.kill('SIGKILL');

      await sweepParts(
        service.dynamo.items,
        service.dynamo.items,
        service.collections.find((c) => c.name === 'profiles')!,
        {},
        0,
      );
      const rows = (await scanTable(engine(), service.table)).filter((row) => row.pk === id);
      const root = rows.find((row) => row.sk === 'profile');
      const named = partRefs(root);
      const orphans = rows.filter((row) => {
        if (row._partOf === undefined) return false;
        const [, part, version] = String(row.sk).split('\u0000');
        return named.get(part!)?.version !== version;
      });
      expect(orphans).toEqual([]);
      // Every chunk the root names is there.
      const chunks = [...named.values()].reduce((sum, ref) => sum + ref.chunks, 0);
      expect(rows.filter((row) => row._partOf !== undefined)).toHaveLength(chunks);
    });
  }
});

/** `seen`'s members in `like`'s order, for a comparison of the whole entity. */
function sortedLike(like: Record<string, unknown>, seen: Record<string, unknown>): Record<string, unknown> {
  const keys = new Set([...Object.keys(like), ...Object.keys(seen)]);
  return Object.fromEntries([...keys].map((key) => [key, seen[key]]));
}
