import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { runScript, stopChild } from '../../devtools/child-process';
import { seededRandom } from '../../devtools/random';
import { waitUntilReady } from '../../devtools/wait-until';
import { autopilotHarness, loadRecordsEnv, titlesWithAutopilot } from '../support/autopilot';
import { TestClock } from '../support/clock';
import { sleep } from './traffic';

const MINUTE_MS = 2000;
const WINDOW_MINUTES = 3;
const WINDOW_MS = WINDOW_MINUTES * MINUTE_MS;
const CONFIG = titlesWithAutopilot('songs', WINDOW_MINUTES);
const FAST = loadRecordsEnv(MINUTE_MS);
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * The autopilot's decision log (`npm run autopilot -- --status`) over a router that writes its load
 * records (one service in-process, on DynamoDB Local): dry runs, forged entries, and a step killed in
 * its reshard, run as `scripts/autopilot.ts` in a process of its own on the machine's clock.
 */
describe("the autopilot's kept decisions, across a killed step", () => {
  const random = seededRandom(39);
  const word = () => Array.from({ length: 6 }, () => LETTERS[Math.floor(random() * 26)]).join('');
  /** The router's clock: the machine's, but where the test replays past minutes at its own pace. */
  const clock = new TestClock();
  const harness = autopilotHarness('kept-decisions', CONFIG, FAST, { now: clock.now });
  const { kept, run: cli } = harness;
  let written = 0;

  /** Writes 5 `title()` titles to the songs, flushing the router's ended minutes as Node does. */
  const writeBatch = async (title: () => string) => {
    const items = Array.from({ length: 5 }, () => ({ pk: `w${written++}`, sk: 'item', title: title() }));
    const response = await harness.service.app.request('/collections/songs/items/batch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    });
    expect(response.status).toBe(200);
    const { load } = harness.service;
    if (load?.due()) await load.flush();
  };
  /** Writes `title()` titles to the songs, 5 every 100 ms, until `until()`. */
  const write = async (title: () => string, until: () => boolean) => {
    while (!until()) {
      await writeBatch(title);
      await sleep(100);
    }
  };

  it('keeps nothing of a dry run, reads forged decisions as absent, and shows a killed step once resumed', {
    timeout: 120_000,
  }, async () => {
    // Forged straight into the table: a log that is not JSON, then one with a malformed entry.
    const log = { pk: '__shardline#autopilot#songs', sk: 'decisions', autopilotOf: 'songs' };
    const put = (decisions: string) =>
      harness.service.dynamo.clients.doc.send(
        new PutCommand({ TableName: harness.service.table, Item: { ...log, decisions } }),
      );
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
      for (let batch = 0; batch < 10; batch++) await writeBatch(songTitle);
      clock.advance(MINUTE_MS);
      await harness.service.load!.flush();
    }
    let killed = false;
    const writing = write(songTitle, () => killed);
    const dry = await cli(['--once', '--dry-run', '--collection', 'songs']);
    expect(JSON.parse(dry.stdout)).toMatchObject({ action: 'reshard', dryRun: true });
    expect((await kept('songs')).decisions).toHaveLength(1);

    // The step killed once its reshard has created the new map.
    const script = runScript('scripts/autopilot.ts', harness.env, ['--once', '--collection', 'songs']);
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
        lease = (await harness.service.maps.pointers({})).get('songs')?.lease;
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

  it('`npm run autopilot` (its loop) stopped during a step ends after it, keeping as many steps as it printed', {
    timeout: 60_000,
  }, async () => {
    const before = (await kept('songs')).decisions;
    // Stopped before its first step ends: that step runs, is printed and kept, and the loop takes no other.
    const stop = new AbortController();
    const running = cli(['--collection', 'songs'], stop.signal);
    stop.abort();
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    const printed = run.stdout.trim().split('\n');
    expect(printed).toHaveLength(1);
    const after = (await kept('songs')).decisions;
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((d) => d.at)).toEqual(printed.map((line) => JSON.parse(line).at));
  });
});
