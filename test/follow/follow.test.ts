import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { compareKeys } from '../../src/core/collation';
import { deleteBehindTheBack, putBehindTheBack, setBehindTheBack } from '../support/behind-the-back';
import { startDynamoProxy } from '../support/dynamo-proxy';
import { get, post } from '../support/http';
import { startTestService } from '../support/service';
import { scanTable } from '../support/table-scan';
import { FOLLOW_CONFIG, listing, WITH_STREAM, lookup, runFollow, summaryOf } from './support';

/**
 * `npm run follow` as a real process over DynamoDB Local (the embedded engine has no
 * Streams): what other applications put, rename and delete straight in the table is
 * indexed for the collections' members and nothing else; killed and restarted, it resumes.
 */
describe('npm run follow on DynamoDB Local', () => {
  const endpoint = inject('engines').dynamodbLocal;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const follow = (...args: string[]) => runFollow(env, args).done;
  const names = (items: Record<string, unknown>[], field: string) => items.map((item) => item[field]);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-follow-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(FOLLOW_CONFIG));
    service = await startTestService('dynamodbLocal', { config: FOLLOW_CONFIG, env: WITH_STREAM });
    env = {
      ...process.env,
      DYNAMODB_ENDPOINT: endpoint,
      TABLE_NAME: service.table,
      SHARDLINE_CONFIG: join(dir, 'config.json'),
      AWS_ACCESS_KEY_ID: 'shardline',
      AWS_SECRET_ACCESS_KEY: 'shardline',
    };
    delete env.AWS_REGION;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes members put, renamed and deleted behind its back, reports poison, leaves the rest alone', async () => {
    const albums = Array.from({ length: 12 }, (_, i) => ({ pk: `a${i}`, sk: 'album', title: `Album ${i}` }));
    expect((await post(service.app, '/collections/albums/items/batch', { items: albums })).body.written).toBe(12);
    const tracks = Array.from({ length: 30 }, (_, i) => ({ pk: `t${i}`, sk: `track#${i}`, name: `Track ${29 - i}` }));
    const strangers = [
      { pk: 'x1', sk: 'note#1', name: 'Not a track' },
      { pk: 'x2', sk: 'album', title: 'An album nobody wrote through shardline' },
    ];
    const poison = [
      { pk: 'p1', sk: 'track#p1', name: 'x'.repeat(1100) },
      { pk: 'p2', sk: 'track#p2', name: 'nul \u0000 inside' },
    ];
    await putBehindTheBack(endpoint, service.table, [
      ...tracks,
      ...strangers,
      ...poison,
      { pk: 'g', sk: 'track#g', name: 'Gone' },
    ]);
    // Renamed: an album shardline wrote (its index key is stale now) and a track just put.
    await setBehindTheBack(endpoint, service.table, [
      ...[0, 1, 2].map((i) => ({ key: { pk: `a${i}`, sk: 'album' }, attribute: 'title', value: `Zebra ${i}` })),
      { key: { pk: 't0', sk: 'track#0' }, attribute: 'name', value: 'Aardvark' },
    ]);
    await deleteBehindTheBack(endpoint, service.table, [
      { pk: 'a3', sk: 'album' },
      { pk: 'g', sk: 'track#g' },
    ]);

    const run = await follow('--until-idle');
    expect(run.code, run.stderr).toBe(0);

    const expectedAlbums = [
      ...albums.slice(4),
      ...[0, 1, 2].map((i) => ({ pk: `a${i}`, sk: 'album', title: `Zebra ${i}` })),
    ].sort((a, b) => compareKeys(a.title.toLowerCase(), b.title.toLowerCase()));
    expect(names(await listing(service.app, 'albums'), 'pk')).toEqual(expectedAlbums.map((a) => a.pk));
    const expectedTracks = [{ pk: 't0', name: 'Aardvark' }, ...tracks.slice(1)].sort((a, b) =>
      compareKeys(a.name.toLowerCase(), b.name.toLowerCase()),
    );
    const listed = await listing(service.app, 'tracks');
    expect(names(listed, 'pk')).toEqual(expectedTracks.map((t) => t.pk));
    expect(names(listed, 'name')).toEqual(expectedTracks.map((t) => t.name));
    expect(await lookup(service.app, 'albums', 'zebra 1')).toEqual(['a1']);
    expect(await lookup(service.app, 'albums', 'Album 1')).toEqual([]);
    expect(await lookup(service.app, 'tracks', 'aardvark')).toEqual(['t0']);
    expect(await lookup(service.app, 'tracks', 'Track 29')).toEqual([]);

    // Non-members and poison records stay unindexed; poison is reported by primary key.
    const rows = await scanTable(endpoint, service.table);
    for (const pk of ['x1', 'x2', 'p1', 'p2']) {
      const row = rows.find((r) => r.pk === pk)!;
      expect(Object.keys(row).filter((name) => name.startsWith('gsi'))).toEqual([]);
    }
    const reports = run.stderr
      .split('\n')
      .filter((line) => line.includes('shardline.poison_record'))
      .map((line) => JSON.parse(line));
    expect(reports.map((r) => r.key).sort((a, b) => compareKeys(a.pk, b.pk))).toEqual(
      poison.map(({ pk, sk }) => ({ pk, sk })),
    );
    expect(reports.every((r) => r.collection === 'tracks' && typeof r.reason === 'string')).toBe(true);
    expect(summaryOf(run.stdout)).toMatchObject({ poison: 2, indexed: 3 + 30 });
    const item = await get(service.app, '/collections/tracks/item?pk=x1&sk=note%231');
    expect(item.status).toBe(404);

    // Run again: it resumes after its checkpoints, and there is nothing left to do.
    const again = await follow('--until-idle');
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again.stdout).indexed).toBe(0);
    expect(summaryOf(again.stdout).seen).toBeLessThan(10);
  });

  it('indexes a typed order from the stream: numbers stay numbers, a re-dated item moves', async () => {
    const releases = [1999, 2021, 1970, 2005, 1988].map((year, i) => ({
      pk: `r${i}`,
      sk: `release#${i}`,
      year,
      title: `Release ${i}`,
    }));
    await putBehindTheBack(endpoint, service.table, releases);
    await setBehindTheBack(endpoint, service.table, [
      { key: { pk: 'r1', sk: 'release#1' }, attribute: 'year', value: 1950 },
    ]);

    const run = await follow('--until-idle');
    expect(run.code, run.stderr).toBe(0);
    expect(summaryOf(run.stdout).poison).toBe(0);
    // year descending: 2005, 1999, 1988, 1970, 1950 (r1, re-dated from 2021).
    expect(names(await listing(service.app, 'releases'), 'pk')).toEqual(['r3', 'r0', 'r4', 'r2', 'r1']);
  });

  it('killed mid-way and restarted, resumes from its checkpoints: nothing lost, nothing indexed twice', async () => {
    const count = 600;
    const members = Array.from({ length: count }, (_, i) => ({ pk: `k${i}`, sk: `track#k${i}`, name: `Kilo ${i}` }));
    await putBehindTheBack(endpoint, service.table, members);
    const indexedNow = async () =>
      (await scanTable(endpoint, service.table)).filter((r) => String(r.pk).startsWith('k') && r.gsi1pk).length;

    // The first run reaches the engine through a proxy, so the test knows when the calls it sent
    // before it was killed have all been carried out.
    const proxy = await startDynamoProxy(endpoint);
    const first = runFollow({ ...env, DYNAMODB_ENDPOINT: proxy.endpoint }, ['--batch', '10']);
    const started = Date.now();
    while ((await indexedNow()) < 60) {
      if (Date.now() - started > 60_000) throw new Error('the follower did not start indexing within a minute');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    first.child.kill('SIGKILL');
    expect((await first.done).code).toBeNull();
    await proxy.idle();
    await proxy.close();
    const before = await indexedNow();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(count); // really killed mid-way

    const second = await follow('--until-idle');
    expect(second.code, second.stderr).toBe(0);
    const summary = summaryOf(second.stdout);
    // Every member indexed exactly once over both runs.
    expect(before + summary.indexed).toBe(count);
    // Resumed after its checkpoints: beside the records of its own updates, it read at most this test's puts
    // and the killed run's updates (starting over would also read every record of the test before).
    expect(summary.seen - summary.indexed).toBeLessThan(count + before);
    const expected = [...members].sort((a, b) => compareKeys(a.name.toLowerCase(), b.name.toLowerCase()));
    const listed = (await listing(service.app, 'tracks')).filter((t) => String(t.pk).startsWith('k'));
    expect(names(listed, 'pk')).toEqual(expected.map((m) => m.pk));
  });

  it('says how to enable a stream on a table without one, and refuses the embedded engine', async () => {
    const { createSingleIndexTable } = await import('../support/behind-the-back');
    const table = `nostream-${service.table}`;
    await createSingleIndexTable(endpoint, table);
    const refused = await runFollow({ ...env, TABLE_NAME: table }, ['--until-idle']).done;
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(
      `aws dynamodb update-table --table-name ${table} ` +
        `--stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES --endpoint-url ${endpoint}`,
    );
    const embedded = { ...env };
    delete embedded.DYNAMODB_ENDPOINT;
    const noStreams = await runFollow(embedded, ['--until-idle']).done;
    expect(noStreams.code).toBe(3);
    expect(noStreams.stderr).toMatch(/embedded engine \(dynalite\) has no DynamoDB Streams/);
    const usage = await follow('--batch', '0');
    expect(usage.code).toBe(2);
  });
});
