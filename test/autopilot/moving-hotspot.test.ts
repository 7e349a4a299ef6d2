import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runScript, stopChild } from '../../devtools/child-process';
import { seededRandom } from '../../devtools/random';
import { waitUntilReady } from '../../devtools/wait-until';
import { autopilotCli } from '../../src/cli/autopilot-cli';
import type { Service } from '../../src/runtime/service';
import { cliEnv } from '../reshard/processes';
import { TestClock } from '../support/clock';
import { startTestService } from '../support/service';
import { sleep } from './traffic';

/**
 * Windows of 6 s: a reshard here takes about 10 s (its phases wait for the routers' map TTL and
 * deadline), so without the rising bar ten windows hold three or four reshards (one, then a
 * whole window of the new map, then the next), and the test can fail.
 */
const MINUTE_MS = 2000;
const WINDOW_MINUTES = 3;
const WINDOW_MS = WINDOW_MINUTES * MINUTE_MS;
const range = { kind: 'range', boundaries: ['', 'e', 'i', 'n', 'r', 'v'] };
const autopilot = { windowMinutes: WINDOW_MINUTES, cooldownMinutes: 0, rate: 100_000 };
const CONFIG = {
  collections: {
    books: { field: 'title', strategy: range, autopilot },
    songs: { field: 'title', strategy: range, autopilot },
  },
};
/** Short minutes, map TTL and deadlines: a reshard's phases wait about 2 s each. */
const FAST = {
  SHARDLINE_LOAD_RECORDS: 'true',
  SHARDLINE_LOAD_MINUTE_MS: String(MINUTE_MS),
  SHARDLINE_MAP_TTL_MS: '50',
  REQUEST_TIMEOUT_MS: '1000',
};
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Where the hotspot is, window after window: each letter in another range of the first map. */
const HOT_LETTERS = 'bgkptx';

interface Kept {
  collection: string;
  decisions: {
    action: string;
    reason: string;
    heldBack?: boolean;
    dryRun?: boolean;
    reshard?: { code: number | null; last: string };
  }[];
}

/**
 * The autopilot as an operator runs it (`npm run autopilot`, in-process) over a router that
 * writes its load records (one service in-process, on DynamoDB Local), with minutes of 1 s.
 */
describe('the autopilot under a hotspot that moves, and across a killed step', () => {
  const random = seededRandom(39);
  const word = () => Array.from({ length: 6 }, () => LETTERS[Math.floor(random() * 26)]).join('');
  let dir: string;
  let env: Record<string, string>;
  let service: Service & { table: string };
  let written = 0;
  /** The router's clock: the machine's, but where the test replays past minutes at its own pace. */
  const clock = new TestClock();

  const cli = async (args: string[], stop?: AbortSignal) => {
    let stdout = '';
    let stderr = '';
    const code = await autopilotCli(args, {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      env,
      ...(stop && { stop }),
    });
    return { code, stdout, stderr };
  };
  const kept = async (collection: string): Promise<Kept> => {
    const run = await cli(['--status', '--json', '--collection', collection]);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout)[0];
  };
  /** Writes 5 `title()` titles to `collection`, flushing the router's ended minutes as Node does. */
  const writeBatch = async (collection: string, title: () => string) => {
    const items = Array.from({ length: 5 }, () => ({ pk: `w${written++}`, sk: 'item', title: title() }));
    const response = await service.app.request(`/collections/${collection}/items/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    });
    expect(response.status).toBe(200);
    if (service.load?.due()) await service.load.flush();
  };
  /** Writes `title()` titles to `collection`, 5 every 100 ms, until `until()`. */
  const write = async (collection: string, title: () => string, until: () => boolean) => {
    while (!until()) {
      await writeBatch(collection, title);
      await sleep(100);
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-moving-hotspot-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
    service = await startTestService('dynamodbLocal', { config: CONFIG, env: FAST, now: clock.now });
    env = { ...cliEnv(inject('engines').dynamodbLocal, service.table, join(dir, 'config.json'), FAST) };
  });
  afterAll(async () => {
    service?.dynamo.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reshards at most twice in ten windows with cooldown 0, the bar held high while it moves', {
    timeout: 120_000,
  }, async () => {
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    const hot = () => `${HOT_LETTERS[Math.floor(elapsed() / WINDOW_MS) % HOT_LETTERS.length]}${word()}`;
    const stop = new AbortController();
    const writing = write('books', hot, () => elapsed() > 10 * WINDOW_MS).finally(() => stop.abort());
    // A step a minute, as `npm run autopilot` runs; stopped once ten windows have passed.
    const stepping = cli(['--collection', 'books'], stop.signal);
    await writing;
    const run = await stepping;
    expect(run.code, run.stderr).toBe(0);

    const { decisions } = await kept('books');
    const reshards = decisions.filter((d) => d.action === 'reshard' && d.reshard?.code !== 3);
    const summary = JSON.stringify(decisions, null, 1);
    expect(reshards.length, summary).toBeGreaterThanOrEqual(1);
    expect(reshards.length, summary).toBeLessThanOrEqual(2);
    // Every step is kept (the last one's reshard, if the stop cut it short, as stopped): as many as printed.
    expect(decisions.length, summary).toBe(run.stdout.trim().split('\n').length);
  });

  it('keeps nothing of a dry run, reads forged decisions as absent, and shows a killed step once resumed', {
    timeout: 120_000,
  }, async () => {
    // Forged straight into the table: a log that is not JSON, then one with a malformed entry.
    const log = { pk: '__shardline#autopilot#songs', sk: 'decisions', autopilotOf: 'songs' };
    const put = (decisions: string) =>
      service.dynamo.clients.doc.send(new PutCommand({ TableName: service.table, Item: { ...log, decisions } }));
    await put('{not json');
    expect((await kept('songs')).decisions).toEqual([]);
    const valid = {
      at: new Date().toISOString(),
      action: 'none',
      reason: 'balanced enough',
      mapVersion: 1,
      imbalance: 1,
    };
    await put(JSON.stringify([{ ...valid, imbalance: 'x' }, { at: 'yesterday' }, valid]));
    expect((await kept('songs')).decisions).toEqual([valid]);
    const text = await cli(['--status', '--collection', 'songs']);
    expect(text.stdout).toContain('songs: 1 decisions kept');

    // Every write on one shard, a window and on until the killed step's reshard began: the step reshards.
    // The window's minutes are lived through on the router's clock, set back that far: each minute's
    // writes, then the minute ended and its record written, until the clock is the machine's again.
    const songTitle = () => `m${word()}`;
    clock.goBack(WINDOW_MS + 2 * MINUTE_MS);
    for (let minute = 0; minute < WINDOW_MINUTES + 2; minute++) {
      for (let batch = 0; batch < 10; batch++) await writeBatch('songs', songTitle);
      clock.advance(MINUTE_MS);
      await service.load!.flush();
    }
    let killed = false;
    const writing = write('songs', songTitle, () => killed);
    const dry = await cli(['--once', '--dry-run', '--collection', 'songs']);
    expect(JSON.parse(dry.stdout)).toMatchObject({ action: 'reshard', dryRun: true });
    expect((await kept('songs')).decisions).toHaveLength(1);

    // The step killed once its reshard has created the new map.
    const script = runScript('scripts/autopilot.ts', env, ['--once', '--collection', 'songs']);
    await waitUntilReady(() => script.output().includes('created; phase dual-write'), {
      timeoutMs: 30_000,
      intervalMs: 20,
      timedOut: () => `the step did not start a reshard: ${script.output().slice(-3000)}`,
    });
    await stopChild(script.child, () => script.child.kill('SIGKILL'));
    killed = true;
    await writing;
    // Its lease expires (SHARDLINE_RESHARD_LEASE_MS, 1 s here); the next step goes on with the reshard.
    let lease: { until: number } | undefined;
    await waitUntilReady(
      async () => {
        lease = (await service.maps.pointers({})).get('songs')?.lease;
        return (lease?.until ?? 0) < Date.now();
      },
      { timeoutMs: 10_000, intervalMs: 50, timedOut: () => `the killed step's lease: ${JSON.stringify(lease)}` },
    );
    const resumed = await cli(['--once', '--collection', 'songs']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ reshard: { code: 0 } });

    const steps = (await kept('songs')).decisions;
    expect(steps.map((d) => [d.action, d.reshard?.code])).toEqual([
      ['none', undefined],
      ['reshard', 130],
      ['none', 0],
    ]);
    expect(steps[1]!.reshard!.last).toMatch(/killed or stopped/);
    const shown = (await cli(['--status', '--collection', 'songs'])).stdout;
    expect(shown).toContain('songs: 3 decisions kept');
    expect(shown).toMatch(/reshard .*\(reshard exit 130\)/);
    expect(shown).toMatch(/resumed the reshard to v2 and finished it/);
  });
});
