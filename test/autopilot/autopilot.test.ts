import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runScript, stopChild } from '../../devtools/child-process';
import { seededRandom } from '../../devtools/random';
import { waitUntilReady } from '../../devtools/wait-until';
import { boundariesCli } from '../../src/cli/boundaries-cli';
import { reshardCli } from '../../src/cli/reshard-cli';
import { type Router, sharedEnv, startRouter } from '../reshard/processes';
import { type Pace, Traffic } from './traffic';

const MINUTE_MS = 1000;
const WINDOW_MINUTES = 3;
const CONFIG = {
  collections: {
    books: {
      field: 'title',
      strategy: { kind: 'range', boundaries: ['', 'e', 'i', 'n', 'r', 'v'] },
      autopilot: { windowMinutes: WINDOW_MINUTES, cooldownMinutes: 0, rate: 100_000 },
    },
  },
};
/**
 * Each writer (one per router) 100 writes/s, the fleet 200: all on one shard, 2 units
 * each, 0.4 of a partition (maxPartitionShare is not what moves the autopilot here).
 * While a reshard runs, a trickle: enough to write through every phase, few items to move.
 */
const STEADY: Pace = { items: 10, everyMs: 100 };
const TRICKLE: Pace = { items: 1, everyMs: 200 };
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A router's 200 answer to a GET (test assertions read arbitrary response shapes). */
async function getJson(base: string, path: string): Promise<any> {
  const response = await fetch(`${base}${path}`);
  const body = await response.json();
  expect(response.status, `GET ${path}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

/** Autopilot processes under way: a test that fails while one runs leaves it to `afterAll`. */
const running = new Set<ChildProcess>();

/** `npm run autopilot -- ...` as an operator runs it, in its own process; exit code 0 expected. */
async function autopilot(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const script = runScript('scripts/autopilot.ts', env, args);
  running.add(script.child);
  const run = await script.done.finally(() => running.delete(script.child));
  expect(run.code, run.output).toBe(0);
  return run.stdout;
}

/** One step (`--once`) for the books: the decision, its JSON line (the last on stdout). */
async function step(env: NodeJS.ProcessEnv) {
  const stdout = await autopilot(env, ['--once', '--collection', 'books']);
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/**
 * The loop closed (docs/autopilot.md) as deployed: two router processes (`npm start`) over one
 * table on DynamoDB Local, an application writing and listing through both over HTTP, and
 * the autopilot run as an operator runs it (`npm run autopilot -- --once`). A range
 * collection under even writes is left alone; when the writes move onto one key range
 * (one shard), one step re-cuts the boundaries by load, after which the same writes
 * spread over the shards; the next step leaves it alone. Every listing taken meanwhile,
 * through the reshard too, is exact, and the fleet's load counts every write of both routers.
 */
describe('the autopilot over two router processes on DynamoDB Local', () => {
  const random = seededRandom(12);
  const word = () => Array.from({ length: 6 }, () => LETTERS[Math.floor(random() * 26)]).join('');
  // Titles whose leading letter takes every value in turn, the rest random: what any few
  // hundred of them weigh is spread as the whole workload's is, so a window of load shows
  // the workload itself, not chance (a cut from it, and the next window, agree).
  let evenTitles = 0;
  let hotTitles = 0;
  /** Uniform writes: each shard gets its range's share (4 or 5 letters of 26). */
  const even = () => `${LETTERS[evenTitles++ % 26]}${word()}`;
  /** New releases: every title in "m…", on shard 2 alone under the first map. */
  const hot = () => `m${LETTERS[hotTitles++ % 26]}${word()}`;

  let dir: string;
  let env: NodeJS.ProcessEnv;
  const routers: Router[] = [];
  let bases: string[];
  let traffic: Traffic;

  const expectEveryListingExact = () => {
    expect(traffic.failures).toEqual([]);
    const inexact = traffic.listings.filter((listing) => listing.problems.length > 0);
    expect(inexact.map((listing) => ({ ...listing, problems: listing.problems.slice(0, 5) }))).toEqual([]);
  };
  /** The writes a router's `/load` over the last `minutes` counts (rates × the window), and the routers reporting. */
  const counted = async (base: string, minutes: number) => {
    const load = await getJson(base, `/collections/books/load?minutes=${minutes}`);
    const writes = load.shards.reduce(
      (sum: number, shard: { writesPerSecond: number }) => sum + shard.writesPerSecond * load.windowSeconds,
      0,
    );
    return { writes, routers: load.routers, windowSeconds: load.windowSeconds };
  };
  /**
   * Waits until the window a step reads holds a record of each router in each of its minutes, and its
   * first minute began at `since` or later. The routers and the autopilot run on the machine's clock in
   * processes of their own: the test polls for the window it needs rather than sleeping a guess at it.
   */
  const windowFilled = async (since: number) => {
    let seen: unknown;
    await waitUntilReady(
      async () => {
        const now = Date.now();
        if (now - (now % MINUTE_MS) - WINDOW_MINUTES * MINUTE_MS < since) return false;
        const load = await getJson(bases[0]!, `/collections/books/load?minutes=${WINDOW_MINUTES}`);
        seen = { records: load.records, routers: load.routers, mapVersion: load.mapVersion };
        return load.records === routers.length * WINDOW_MINUTES;
      },
      { timeoutMs: 30_000, intervalMs: 50, timedOut: () => `no whole window since ${since}: ${JSON.stringify(seen)}` },
    );
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-autopilot-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
    env = sharedEnv(inject('engines').dynamodbLocal, `t-${randomUUID()}`, {
      SHARDLINE_CONFIG: join(dir, 'config.json'),
      SHARDLINE_LOAD_RECORDS: 'true',
      SHARDLINE_LOAD_MINUTE_MS: String(MINUTE_MS),
      SHARDLINE_MAP_TTL_MS: '50',
      REQUEST_TIMEOUT_MS: '5000',
      SHARDLINE_RESHARD_LEASE_MS: '1000',
    });
    // One after the other: the first creates the table. Two starting at once on a missing table
    // may both turn its TTL on, and the second fails to start ("TimeToLive is already enabled").
    routers.push(await startRouter(env));
    routers.push(await startRouter(env));
    bases = routers.map((router) => router.base);
    traffic = new Traffic(bases, 'books', 500);
  });
  afterAll(async () => {
    await Promise.all([...running].map((child) => stopChild(child, () => child.kill('SIGKILL'))));
    await traffic?.stop();
    await Promise.all(routers.map((router) => router.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves even load alone, re-cuts a hot range once by load, and the hot writes spread', {
    timeout: 150_000,
  }, async () => {
    const evenSince = Date.now();
    traffic.write(even, STEADY);
    // The step reads the last window of ended minutes once its process is up (a second or more):
    // even writes, each minute written to the table by each router's own timer.
    await windowFilled(evenSince);
    const left = await step(env);
    expect(left, JSON.stringify(left)).toMatchObject({
      action: 'none',
      reason: 'balanced enough',
      mapVersion: 1,
      routers: 2,
    });

    // The writers pause; once each router's timer has written its last minute, the fleet's load
    // over a window covering every write counts each one, as either router answers it.
    await traffic.hold();
    const made = traffic.ledger.writes.size;
    const minutes = Math.ceil((Date.now() - traffic.firstWrite()) / MINUTE_MS) + 2;
    let seen: Awaited<ReturnType<typeof counted>>[] = [];
    await waitUntilReady(
      async () => {
        seen = await Promise.all(bases.map((base) => counted(base, minutes)));
        return seen.every((load) => Math.abs(load.writes - made) < 1e-6 && load.routers === 2);
      },
      { timeoutMs: 10_000, intervalMs: 100, timedOut: () => `${made} writes made; /load: ${JSON.stringify(seen)}` },
    );
    for (const load of seen) {
      expect(load.writes).toBeCloseTo(made, 6);
      expect(load).toMatchObject({ routers: 2, windowSeconds: (minutes * MINUTE_MS) / 1000 });
    }

    const hotSince = Date.now();
    traffic.write(hot, STEADY);
    await windowFilled(hotSince);
    // The step decides on the window and reshards while the application goes on (a trickle).
    let stepping = true;
    const moving = step(env).finally(() => (stepping = false));
    // Meanwhile the same cut, as a file: `npm run boundaries -- --weight load` predicts the load evened.
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

    await waitUntilReady(
      async () => !stepping || (await getJson(bases[0]!, '/collections/books')).map.phase !== 'stable',
      { timeoutMs: 60_000, intervalMs: 100, timedOut: () => 'the step neither started a reshard nor ended' },
    );
    traffic.changePace(TRICKLE);
    const moved = await moving;
    traffic.changePace(STEADY);
    const movedAt = Date.now();
    expect(moved, JSON.stringify(moved)).toMatchObject({ action: 'reshard', target: { kind: 'range', shards: 6 } });
    expect(moved.reshard).toMatchObject({ code: 0, last: expect.stringMatching(/books: stable on v2/) });
    for (const base of bases) {
      expect(await getJson(base, '/collections/books')).toMatchObject({
        shardCount: 6,
        map: { version: 2, phase: 'stable' },
      });
    }

    // The same kind of writes now spread: no shard gets more than twice its fair share.
    const shards = new Array<number>(6).fill(0);
    for (let i = 0; i < 300; i++) {
      const route = await getJson(bases[i % 2]!, `/collections/books/route?key=${hot()}`);
      shards[route.shards[0]]! += 1;
    }
    expect(Math.max(...shards), JSON.stringify(shards)).toBeLessThanOrEqual(2 * (300 / 6));

    // Under the new map the same load is balanced: the next step, a window later, leaves it alone.
    await windowFilled(movedAt);
    const after = await step(env);
    expect(after, JSON.stringify(after)).toMatchObject({ action: 'none', mapVersion: 2, routers: 2 });
    await traffic.stop();

    // Every step is kept in the table; every listing, before, through and after the reshard,
    // and one at rest, was exact.
    const [status] = await Promise.all([
      autopilot(env, ['--status', '--json', '--collection', 'books']),
      traffic.listOnce(),
    ]);
    const [kept] = JSON.parse(status);
    expect(kept.decisions.map((d: { action: string }) => d.action)).toEqual(['none', 'reshard', 'none']);
    expect(traffic.listings.filter((listing) => listing.phase !== 'stable').length).toBeGreaterThan(0);
    expectEveryListingExact();
  });

  it('goes on with a reshard whose run was stopped, at its next step', { timeout: 120_000 }, async () => {
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
    expect((await getJson(bases[1]!, '/collections/books')).map.phase).not.toBe('stable');

    const resumed = await step(env);
    expect(resumed, JSON.stringify(resumed)).toMatchObject({
      reason: 'resumed the reshard to v3 and finished it',
      reshard: { code: 0 },
    });
    for (const base of bases) {
      expect(await getJson(base, '/collections/books')).toMatchObject({
        strategy: 'hash',
        shardCount: 3,
        map: { version: 3, phase: 'stable' },
      });
    }
    await traffic.listOnce();
    expectEveryListingExact();
  });
});
