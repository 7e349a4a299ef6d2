import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareKeys } from '../../src/core/collation';
import { normalize } from '../../src/core/normalize';
import { writeAll } from '../support/http';
import { startTestService } from '../support/service';

const ROOT = resolve(import.meta.dirname, '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const ITEMS = 10_000;

/**
 * `shardline/client` as an app gets it: `npm pack`, the tarball installed into a fresh
 * project, a strict TypeScript program type-checked and run there against a running
 * server whose listings answer a storm of 503s with Retry-After. It lists all 10,000
 * items, in order, through them, and one customer of the grouped `orders`.
 */
describe('the packed client in a fresh project', () => {
  let app: string;
  let server: ServerType;
  let url: string;
  const answered: { status: number; at: number }[] = [];
  const expected: string[] = [];

  beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), 'shardline-client-'));
    execFileSync(NPM, ['pack', '--pack-destination', work], { cwd: ROOT, stdio: 'pipe' });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'))!;
    app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    const install = ['install', join(work, tarball), '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'];
    execFileSync(NPM, install, { cwd: app, stdio: 'pipe' });
    copyFileSync(join(ROOT, 'test/fixtures/client-consumer/main.ts'), join(app, 'main.ts'));
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          lib: ['ES2022', 'DOM'],
          types: [],
          outDir: 'out',
        },
        files: ['main.ts'],
      }),
    );

    const service = await startTestService('dynalite');
    const items = Array.from({ length: ITEMS }, (_, i) => ({
      pk: `p${i}`,
      sk: 'album',
      title: `Title ${(i * 7919) % ITEMS} ${i % 3 ? 'é' : 'e'}`,
    }));
    await writeAll(service.app, 'albums', items);
    const order = (item: { title: string; pk: string }) => normalize(item.title, 'nfkd-lower');
    expected.push(
      ...items.sort((a, b) => compareKeys(order(a), order(b)) || compareKeys(a.pk, b.pk)).map((item) => item.pk),
    );
    // Every other listing request is refused as an overloaded router refuses it; one in
    // five of those asks for a whole second.
    let listings = 0;
    server = serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: async (request) => {
        const listing = new URL(request.url).pathname === '/collections/albums/items' && request.method === 'GET';
        if (listing && listings++ % 2 === 0) {
          answered.push({ status: 503, at: Date.now() });
          const body = { error: { code: 'overloaded', message: 'at the admission limit', requestId: 'storm' } };
          return Response.json(body, { status: 503, headers: { 'retry-after': listings % 5 === 1 ? '1' : '0' } });
        }
        const response = await service.app.fetch(request);
        if (listing) answered.push({ status: response.status, at: Date.now() });
        return response;
      },
    });
    await new Promise<void>((listening) => server.once('listening', () => listening()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 300_000); // npm pack, npm install and 10,000 writes: past the default 120 s on a busy two-core machine
  afterAll(() => {
    server?.close();
    if (app) rmSync(resolve(app, '..'), { recursive: true, force: true });
  });

  it('type-checks strictly, and lists every item in order through the 503s', async () => {
    const tsc = resolve(ROOT, 'node_modules/typescript/bin/tsc');
    const compiled = spawnSync(process.execPath, [tsc, '-p', app], { encoding: 'utf8' });
    expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);

    // Not spawnSync: the server answering it runs in this process.
    const run = await promisify(execFile)(process.execPath, [join(app, 'out/main.js'), url], { timeout: 120_000 });
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ title: 'Aaa first of all', missing: true, unknown: '404 collection_not_found' });
    expect(result.route).toMatchObject({ normalized: 'aaa first of all' });
    expect(result.pks).toEqual(['Client', ...expected]);
    expect(result.pages).toBe(11);
    expect(result.orders).toEqual({ newestFirst: ['order#2', 'order#1'], shards: 1, phase: 'stable' });
    // The storm was real, and the client waited the second it was asked to.
    const refused = answered.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(10);
    const gaps = answered.slice(1).map((a, i) => a.at - answered[i]!.at);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(950);
  });
});
