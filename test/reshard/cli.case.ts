import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { startDynamoDbLocal } from '../../devtools/dynamodb-local';
import { reshardCli } from '../../src/cli/reshard-cli';
import { compareKeys } from '../../src/core/collation';
import type { MapPointer } from '../../src/core/shard-map';
import { createSingleIndexTable, putBehindTheBack, setBehindTheBack } from '../support/behind-the-back';
import type { EngineEndpoints } from '../support/global-setup';
import { get, post } from '../support/http';
import { startTestService } from '../support/service';
import { cliEnv, runReshard } from './processes';

const ROOT = resolve(import.meta.dirname, '../..');
const SEED_BOUNDARIES = JSON.parse(readFileSync(resolve(ROOT, 'boundaries/albums.json'), 'utf8')).boundaries;

/** The demo collections plus `tracks`, whose members other applications write (sk begins with "track#"). */
const CONFIG = {
  collections: {
    albums: { field: 'title', strategy: { kind: 'range', boundaries: SEED_BOUNDARIES } },
    'albums-hash': { field: 'title', strategy: { kind: 'hash', shards: 21 } },
    tracks: {
      field: 'name',
      strategy: { kind: 'hash', shards: 4 },
      members: { attribute: 'sk', beginsWith: 'track#' },
    },
    // A typed order whose members other applications write: their numbers must reach it as numbers.
    releases: {
      order: [{ field: 'year', type: 'number', direction: 'desc' }, { field: 'title' }],
      strategy: { kind: 'hash', shards: 3 },
      members: { attribute: 'sk', beginsWith: 'release#' },
    },
  },
};

/**
 * `npm run reshard` as an operator meets it, in process: bad input refused with a reason
 * and nothing changed, abort and rollback back to an exact old map, adoption of items
 * other applications wrote (members only).
 */
export function reshardCliSuite(engine: keyof EngineEndpoints): void {
  describe(`npm run reshard on ${engine}`, () => {
    let service: Awaited<ReturnType<typeof startTestService>>;
    let dir: string;
    let env: Record<string, string>;
    const fast = { SHARDLINE_MAP_TTL_MS: '50', REQUEST_TIMEOUT_MS: '3000' };

    const cli = (...args: string[]) => reshardCliRun(env, args);
    const pointer = async (name: string): Promise<MapPointer> => {
      const collection = service.collections.find((c) => c.name === name)!;
      return (await service.maps.pointers({})).get(collection.name)!;
    };
    const titles = async (name: string) => {
      const names: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await get(service.app, `/collections/${name}/items?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        names.push(...page.body.items.map((item: { pk: string }) => item.pk));
        cursor = page.body.nextCursor;
      } while (cursor);
      return names;
    };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'shardline-reshard-cli-'));
      writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
      service = await startTestService(engine, { config: CONFIG, env: fast });
      env = cliEnv(inject('engines')[engine], service.table, join(dir, 'config.json'), fast);
      const items = Array.from({ length: 120 }, (_, i) => ({
        pk: `a${i}`,
        sk: 'album',
        title: `Title ${i % 40} ${i}`,
      }));
      for (const name of ['albums', 'albums-hash']) {
        // An item belongs to one collection: each gets its own (same pk, its own sort key).
        const own = items.map((item) => ({ ...item, sk: `album#${name}` }));
        const answer = await post(service.app, `/collections/${name}/items/batch`, { items: own });
        expect(answer.body.written).toBe(items.length);
      }
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('refuses bad input with a reason and changes nothing', async () => {
      const file = (name: string, content: object) => {
        writeFileSync(join(dir, name), JSON.stringify(content));
        return join(dir, name);
      };
      const before = await pointer('albums');
      const cases: [string[], RegExp][] = [
        [
          ['--collection', 'albums', '--boundaries', file('unsorted.json', { boundaries: ['', 'm', 'c'] })],
          /code point order/,
        ],
        [
          ['--collection', 'albums', '--boundaries', file('upper.json', { boundaries: ['', 'Mango'] })],
          /normalization/,
        ],
        [
          [
            '--collection',
            'albums',
            '--boundaries',
            file('other.json', { boundaries: ['', 'm'], collection: 'albums-hash' }),
          ],
          /cut from collection "albums-hash"/,
        ],
        [
          [
            '--collection',
            'albums',
            '--boundaries',
            file('none.json', { boundaries: ['', 'm'], normalization: 'none' }),
          ],
          /normalization none/,
        ],
        [['--collection', 'albums', '--boundaries', join(dir, 'missing.json')], /cannot read/],
        [['--collection', 'nope', '--shards', '4'], /no collection "nope"/],
        [['--collection', 'albums', '--shards', '4'], /range collection/],
        [['--collection', 'albums', '--abort'], /nothing to abort/],
        [['--collection', 'albums', '--rollback'], /nothing to roll back/],
        [['--collection', 'albums', '--adopt'], /no "members" rule/],
      ];
      for (const [args, reason] of cases) {
        const { code, output } = await cli(...args, '--yes');
        expect({ args, code }).toEqual({ args, code: 3 });
        expect(output).toMatch(reason);
      }
      const usage = await cli('--collection', 'albums', '--shards', '4', '--boundaries', 'x.json');
      expect(usage.code).toBe(2);
      expect((await cli('--shards', '4')).code).toBe(2);
      expect((await cli('--help')).output).toMatch(/Usage: npm run reshard/);
      const withoutYes = await cli('--collection', 'albums-hash', '--shards', '8');
      expect(withoutYes).toMatchObject({ code: 3 });
      expect(withoutYes.output).toMatch(/--yes/);
      expect(await pointer('albums')).toEqual(before);
      expect((await pointer('albums-hash')).phase).toBe('stable');
    });

    it('refuses a second reshard while one runs, and aborts back to the exact old map', async () => {
      const listed = await titles('albums-hash');
      const running = cli('--collection', 'albums-hash', '--shards', '8', '--rate', '20', '--yes');
      await until(async () => (await pointer('albums-hash')).phase === 'backfill');
      const other = await cli('--collection', 'albums-hash', '--shards', '16', '--yes');
      expect(other.code).toBe(3);
      expect(other.output).toMatch(/is in phase backfill.*--abort/);
      const same = await cli('--collection', 'albums-hash', '--shards', '8', '--yes');
      expect(same.code).toBe(3);
      expect(same.output).toMatch(/is running/);

      const aborted = await cli('--collection', 'albums-hash', '--abort');
      expect(aborted.code, aborted.output).toBe(0);
      const first = await running;
      expect(first.code).toBe(1);
      expect(first.output).toMatch(/changed by another run/);
      const after = await pointer('albums-hash');
      expect(after).toMatchObject({ phase: 'stable', read: { version: 1, slot: 0 } });
      expect(after.lease).toBeUndefined();
      expect(await titles('albums-hash')).toEqual(listed);
      const status = await cli('--collection', 'albums-hash', '--status');
      expect(status.output).toMatch(/phase stable/);
    });

    // The lease and signal handling are the CLI's, not the engine's: one engine runs them.
    it.runIf(engine === 'dynamodbLocal')(
      'waits out the lease of a run that was killed, counting down; --no-wait refuses instead',
      async () => {
        const listed = await titles('albums-hash');
        const args = ['--collection', 'albums-hash', '--shards', '6', '--yes'];
        // A run with a 6 s lease, killed mid-backfill: its lease outlives it.
        const killed = runReshard({ ...process.env, ...env, SHARDLINE_RESHARD_LEASE_MS: '6000' }, [
          ...args,
          '--rate',
          '20',
        ]);
        await until(async () => (await pointer('albums-hash')).phase === 'backfill');
        killed.child.kill('SIGKILL');
        await killed.done;
        const refused = await cli(...args, '--no-wait');
        expect(refused.code, refused.output).toBe(3);
        expect(refused.output).toMatch(/is running/);
        const resumed = await cli(...args);
        expect(resumed.code, resumed.output).toBe(0);
        expect(resumed.output).toMatch(/waiting \d+ s for it to beat again or expire/);
        expect((await pointer('albums-hash')).phase).toBe('stable');
        expect((await get(service.app, '/collections/albums-hash')).body.shardCount).toBe(6);
        expect(await titles('albums-hash')).toEqual(listed);
      },
    );

    it.runIf(engine === 'dynamodbLocal')(
      'stops at a safe point on SIGINT, releasing its lease, and the same command resumes at once',
      async () => {
        const listed = await titles('albums-hash');
        const args = ['--collection', 'albums-hash', '--shards', '5', '--yes'];
        const interrupted = runReshard({ ...process.env, ...env, SHARDLINE_RESHARD_LEASE_MS: '60000' }, [
          ...args,
          '--rate',
          '20',
        ]);
        await until(async () => ((await pointer('albums-hash')).progress?.scanned ?? 0) > 0);
        interrupted.child.kill('SIGINT');
        const stopped = await interrupted.done;
        expect(stopped.code, stopped.output).toBe(130);
        expect(stopped.output).toMatch(/stopped in phase backfill; the lease is released\. Run the same command again/);
        const left = await pointer('albums-hash');
        expect(left.lease).toBeUndefined();
        expect(left.phase).toBe('backfill');
        const resumed = await cli(...args);
        expect(resumed.code, resumed.output).toBe(0);
        expect(resumed.output).not.toMatch(/waiting \d+ s for it/);
        expect((await get(service.app, '/collections/albums-hash')).body.shardCount).toBe(5);
        expect(await titles('albums-hash')).toEqual(listed);
      },
    );

    it('rolls back after reads switched, and the listing is the same throughout', async () => {
      const listed = await titles('albums');
      const boundaries = join(dir, 'albums-4.json');
      writeFileSync(boundaries, JSON.stringify({ boundaries: ['', 'title 1', 'title 2', 'title 3'] }));
      const running = cli('--collection', 'albums', '--boundaries', boundaries, '--yes');
      await until(async () => (await pointer('albums')).phase === 'switch-reads');
      expect(await titles('albums')).toEqual(listed); // read from the new map's index
      const rolled = await cli('--collection', 'albums', '--rollback');
      expect(rolled.code, rolled.output).toBe(0);
      expect((await running).code).toBe(1);
      expect(await pointer('albums')).toMatchObject({ phase: 'stable', read: { version: 1, slot: 0 } });
      expect(await titles('albums')).toEqual(listed);
      // And the same reshard, run to the end this time.
      const done = await cli('--collection', 'albums', '--boundaries', boundaries, '--yes');
      expect(done.code, done.output).toBe(0);
      expect(await pointer('albums')).toMatchObject({ phase: 'stable', read: { slot: 1 } });
      expect(await titles('albums')).toEqual(listed);
      const shown = await get(service.app, '/collections/albums');
      expect(shown.body).toMatchObject({ shardCount: 4, index: 'GSI2', map: { phase: 'stable', readIndex: 'GSI2' } });
    });

    it('adopts the items other applications wrote that match the members rule, and only those', async () => {
      const members = Array.from({ length: 30 }, (_, i) => ({
        pk: `t${i}`,
        sk: `track#${i}`,
        name: `Track ${29 - i}`,
      }));
      const strangers = [
        { pk: 'x1', sk: 'note#1', name: 'Not a track' },
        { pk: 'x2', sk: 'track', name: 'No hash sign' },
      ];
      const invalid = [{ pk: 't-bad', sk: 'track#bad', name: 42 }];
      await putBehindTheBack(inject('engines')[engine], service.table, [...members, ...strangers, ...invalid]);
      expect(await titles('tracks')).toEqual([]);
      const adopted = await cli('--collection', 'tracks', '--adopt');
      expect(adopted.code, adopted.output).toBe(0);
      expect(adopted.output).toMatch(/30 items updated/);
      const expected = [...members].sort((a, b) => compareKeys(a.name, b.name)).map((m) => m.pk);
      expect(await titles('tracks')).toEqual(expected);
      for (const { pk, sk } of [...strangers, ...invalid]) {
        const answer = await get(service.app, `/collections/tracks/item?pk=${pk}&sk=${encodeURIComponent(sk)}`);
        expect(answer.status).toBe(404);
      }
      // Adopting again finds nothing left to do.
      expect((await cli('--collection', 'tracks', '--adopt')).output).toMatch(/ 0 items updated/);
    });

    it('adopts members of a typed order in that order (numbers read as numbers)', async () => {
      const years = [1901, 1999, 2021, 1970];
      const releases = years.map((year, i) => ({ pk: `r${i}`, sk: `release#${i}`, year, title: `R ${i}` }));
      await putBehindTheBack(inject('engines')[engine], service.table, releases);
      const adopted = await cli('--collection', 'releases', '--adopt');
      expect(adopted.code, adopted.output).toBe(0);
      expect(adopted.output).toMatch(/4 items updated/);
      expect(await titles('releases')).toEqual(['r2', 'r1', 'r3', 'r0']);
    });

    it('--verify finds an item whose field changed behind its back, --repair rewrites its entry', async () => {
      const endpoint = inject('engines')[engine];
      await setBehindTheBack(endpoint, service.table, [
        { key: { pk: 'a5', sk: 'album#albums' }, attribute: 'title', value: 'Zzz renamed' },
      ]);
      const before = await titles('albums');
      const found = await cli('--collection', 'albums', '--verify');
      expect(found.code, found.output).toBe(0);
      expect(found.output).toMatch(
        / 1 with an index entry their ordered fields disagree with \(npm run reshard -- --repair/,
      );
      expect(await titles('albums')).toEqual(before); // a check changes nothing
      const repaired = await cli('--collection', 'albums', '--repair');
      expect(repaired.code, repaired.output).toBe(0);
      expect(repaired.output).toMatch(/ 1 with an index entry their ordered fields disagree with, 1 rewritten/);
      expect((await titles('albums')).at(-1)).toBe('a5');
      expect((await cli('--collection', 'albums', '--verify')).output).toMatch(/ 0 with an index entry/);
    });

    it('adds the second index to a table made before there were two, saying so (where the engine can)', async () => {
      const table = `old-${service.table}`;
      // DynamoDB Local builds the index on an engine of its own: on the shared one, at the end of a full run
      // (hundreds of tables, TTL sweeps, other files' writes), the build has stalled past the test's timeout.
      const own = engine === 'dynamodbLocal' ? await startDynamoDbLocal() : undefined;
      onTestFinished(() => own?.stop());
      const endpoint = own?.endpoint ?? inject('engines')[engine];
      await createSingleIndexTable(endpoint, table);
      const old = await startTestService(engine, {
        config: CONFIG,
        env: { ...fast, TABLE_NAME: table, DYNAMODB_ENDPOINT: endpoint },
      });
      const items = Array.from({ length: 40 }, (_, i) => ({ pk: `o${i}`, sk: 'album', title: `Old ${i}` }));
      expect((await post(old.app, '/collections/albums-hash/items/batch', { items })).body.written).toBe(40);
      const listed = await get(old.app, '/collections/albums-hash/items?limit=100');
      const run = await reshardCliRun({ ...env, TABLE_NAME: table, DYNAMODB_ENDPOINT: endpoint }, [
        '--collection',
        'albums-hash',
        '--shards',
        '5',
        '--yes',
      ]);
      if (engine === 'dynalite') {
        // dynalite accepts UpdateTable without building the index: refused before anything changed.
        expect(run.code).toBe(1);
        expect(run.output).toMatch(/cannot add an index to an existing table/);
        expect((await old.maps.pointers({})).get('albums-hash')).toMatchObject({ phase: 'stable', revision: 1 });
        return;
      }
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(/adding index GSI2 to table old-/);
      const after = await get(old.app, '/collections/albums-hash/items?limit=100');
      expect(after.body.items).toEqual(listed.body.items);
      expect((await get(old.app, '/collections/albums-hash')).body.map).toMatchObject({
        readIndex: 'GSI2',
        version: 2,
      });
    });
  });
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > 60_000) throw new Error('condition did not hold within a minute');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function reshardCliRun(env: Record<string, string>, args: string[]): Promise<{ code: number; output: string }> {
  let output = '';
  const code = await reshardCli(args, {
    stdout: (text) => (output += text),
    stderr: (text) => (output += text),
    env,
    progress: false,
  });
  return { code, output };
}
