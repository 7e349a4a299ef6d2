import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seededRandom } from '../../devtools/random';
import { autopilotCli } from '../../src/cli/autopilot-cli';
import { boundariesCli } from '../../src/cli/boundaries-cli';
import { reshardCli } from '../../src/cli/reshard-cli';
import { compareKeys } from '../../src/core/collation';
import { normalize } from '../../src/core/normalize';
import { listing } from '../follow/support';
import { cliEnv } from '../reshard/processes';
import { get, post } from '../support/http';
import { startTestService } from '../support/service';

const MINUTE_MS = 1000;
const CONFIG = {
  collections: {
    books: {
      field: 'title',
      strategy: { kind: 'range', boundaries: ['', 'e', 'i', 'n', 'r', 'v'] },
      autopilot: { windowMinutes: 3, cooldownMinutes: 0, rate: 100_000 },
    },
  },
};
const FAST = {
  SHARDLINE_LOAD_RECORDS: 'true',
  SHARDLINE_LOAD_MINUTE_MS: String(MINUTE_MS),
  SHARDLINE_MAP_TTL_MS: '50',
  REQUEST_TIMEOUT_MS: '5000',
};
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * The loop closed (DESIGN §12), on DynamoDB Local with two routers over one table: a
 * range collection under even writes is left alone; when the writes move onto one key
 * range (one shard), one step re-cuts the boundaries by load, after which the same writes
 * spread over the shards; the next step leaves it alone; listings stay exact.
 */
describe('the autopilot on DynamoDB Local', () => {
  const random = seededRandom(12);
  const ledger: { pk: string; title: string }[] = [];
  let a: Awaited<ReturnType<typeof startTestService>>;
  let b: Awaited<ReturnType<typeof startTestService>>;
  let env: Record<string, string>;
  let dir: string;

  const word = () => Array.from({ length: 6 }, () => LETTERS[Math.floor(random() * 26)]).join('');
  /** Both routers write for `ms`, titles from `title()`, and write their ended minutes' load. */
  const writeFor = async (ms: number, title: () => string) => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      for (const [name, router] of [['a', a] as const, ['b', b] as const]) {
        const items = Array.from({ length: 25 }, () => ({
          pk: `${name}${ledger.length}-${word()}`,
          sk: 'book',
          title: title(),
        }));
        const written = await post(router.app, '/collections/books/items/batch', { items });
        expect(written.body.failed).toEqual([]);
        ledger.push(...items);
      }
      await Promise.all([a.load!.flush(), b.load!.flush()]);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    // The minute under way ends, and both routers write it: the window holds every write.
    await new Promise((resolve) => setTimeout(resolve, MINUTE_MS));
    await Promise.all([a.load!.flush(), b.load!.flush()]);
  };
  const step = async () => {
    let out = '';
    let err = '';
    const code = await autopilotCli(['--once', '--collection', 'books'], {
      stdout: (text) => (out += text),
      stderr: (text) => (err += text),
      env,
    });
    expect(code, err).toBe(0);
    return JSON.parse(out.trim().split('\n').at(-1)!);
  };
  const expectExactListing = async () => {
    const key = (item: { title: string; pk: string }) => normalize(item.title, 'nfkd-lower');
    const expected = [...ledger].sort((x, y) => compareKeys(key(x), key(y)) || compareKeys(x.pk, y.pk));
    expect((await listing(a.app, 'books')).map((item) => item.pk)).toEqual(expected.map((item) => item.pk));
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-autopilot-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
    a = await startTestService('dynamodbLocal', { config: CONFIG, env: FAST });
    b = await startTestService('dynamodbLocal', { config: CONFIG, env: { ...FAST, TABLE_NAME: a.table } });
    env = cliEnv(inject('engines').dynamodbLocal, a.table, join(dir, 'config.json'), FAST);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves even load alone, re-cuts a hot range once by load, and the hot writes spread', async () => {
    await writeFor(MINUTE_MS * 4, () => `${LETTERS[Math.floor(random() * 26)]}${word()}`);
    const load = await get(a.app, '/collections/books/load?minutes=3');
    expect(load.body.routers, JSON.stringify({ ...load.body, shards: undefined })).toBe(2);
    const even = await step();
    expect(even, JSON.stringify(even)).toMatchObject({ action: 'none', mapVersion: 1 });

    // New releases: every write now lands in "m…", on shard 2 alone.
    const hot = () => `m${word()}`;
    await writeFor(MINUTE_MS * 4, hot);
    // The same cut, as a file: `npm run boundaries -- --weight load` predicts the load evened.
    const file = join(dir, 'by-load.json');
    let report = '';
    const args = ['--shards', '6', '--collection', 'books', '--weight', 'load', '--minutes', '3', '--out', file];
    const cut = await boundariesCli(args, { stdout: () => {}, stderr: (t) => (report += t), progress: false, env });
    expect(cut, report).toBe(0);
    const weighed = JSON.parse(readFileSync(file, 'utf8')).weight;
    expect(weighed).toMatchObject({ by: 'load', minutes: 3, routers: 2 });
    expect(weighed.currentMaxOverMean).toBeGreaterThan(3);
    expect(weighed.predictedMaxOverMean).toBeLessThan(1.5);
    expect(report).toContain("weighted by the fleet's load over 3 min (2 routers)");

    const moved = await step();
    expect(moved, JSON.stringify(moved)).toMatchObject({ action: 'reshard', target: { kind: 'range', shards: 6 } });
    expect(moved.reshard).toMatchObject({ code: 0, last: expect.stringMatching(/books: stable on v2/) });
    const info = await get(a.app, '/collections/books');
    expect(info.body).toMatchObject({ shardCount: 6, map: { version: 2, phase: 'stable' } });
    await expectExactListing();

    // The same kind of writes now spread: no shard gets more than twice its fair share.
    const shards = new Array<number>(6).fill(0);
    for (let i = 0; i < 300; i++) {
      const route = await get(a.app, `/collections/books/route?key=${hot()}`);
      shards[route.body.shards[0]]! += 1;
    }
    expect(Math.max(...shards), JSON.stringify(shards)).toBeLessThanOrEqual(2 * (300 / 6));

    // Under the new map the same load is balanced: the next step leaves it alone.
    await writeFor(MINUTE_MS * 4, hot);
    const after = await step();
    expect(after, JSON.stringify(after)).toMatchObject({ action: 'none', mapVersion: 2 });
    await expectExactListing();

    // Every step is kept in the table.
    let out = '';
    await autopilotCli(['--status', '--json', '--collection', 'books'], {
      stdout: (t) => (out += t),
      stderr: () => {},
      env,
    });
    const [kept] = JSON.parse(out);
    expect(kept.decisions.map((d: { action: string }) => d.action)).toEqual(['none', 'reshard', 'none']);
  });

  it('goes on with a reshard whose run was stopped, at its next step', async () => {
    // A reshard to 3 hash shards, stopped at its first safe point (as a killed run or Lambda's limit leaves it).
    const stop = new AbortController();
    let output = '';
    const stopped = await reshardCli(['--collection', 'books', '--strategy', 'hash', '--shards', '3', '--yes'], {
      stdout: (text) => (output += text),
      stderr: (text) => {
        output += text;
        if (text.includes('created')) stop.abort();
      },
      env,
      progress: false,
      stop: stop.signal,
    });
    expect(stopped, output).toBe(130);
    expect((await get(a.app, '/collections/books')).body.map.phase).not.toBe('stable');

    const resumed = await step();
    expect(resumed, JSON.stringify(resumed)).toMatchObject({
      reason: 'resumed the reshard to v3 and finished it',
      reshard: { code: 0 },
    });
    expect((await get(a.app, '/collections/books')).body).toMatchObject({
      strategy: 'hash',
      shardCount: 3,
      map: { version: 3, phase: 'stable' },
    });
    await expectExactListing();
  });
});
