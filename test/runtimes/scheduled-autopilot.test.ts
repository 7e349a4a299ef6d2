import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { writeConfigBundle } from '../../devtools/build-config';
import { buildLambdaFolder } from '../../devtools/build-lambda';
import { seededRandom } from '../../devtools/random';
import { autopilotCli } from '../../src/cli/autopilot-cli';
import { compareKeys } from '../../src/core/collation';
import type { StepRecord } from '../../src/autopilot/step';
import { listing } from '../follow/support';
import { cliEnv } from '../reshard/processes';
import { fakeDate, type MovedDate } from '../support/clock';
import { type Fetcher, get, post } from '../support/http';
import { scheduledEvent } from './support/lambda-events';
import { type LambdaRuntime, loadLambdaRuntime, startWorkerRuntime } from './support/runtimes';

/**
 * Real minutes, each ended by moving a clock: the Lambda bundle's, the Date of this process it runs in;
 * the Worker's, its Date.now behind a test entry (support/moved-clock-worker.ts).
 */
const MINUTE_MS = 60_000;
/** The hot minutes written, and at least how many items in them. */
const HOT_MINUTES = 3;
const HOT_ITEMS = 400;
const CONFIG = {
  collections: {
    books: {
      field: 'title',
      strategy: { kind: 'range', boundaries: ['', 'e', 'i', 'n', 'r', 'v'] },
      // A window that holds all three hot minutes: the cut is made from every sampled write, not
      // from the last minute's tail (a window of 2 once held so few samples that its boundaries
      // came out ["", "me", "mh", "mq", "mv", "mz"]).
      autopilot: { windowMinutes: 5, cooldownMinutes: 0, rate: 100_000 },
    },
  },
};
/** Short map TTLs and deadlines: a reshard's settle waits take about 2 s. */
const FAST = {
  AWS_REGION: 'us-east-1',
  SHARDLINE_CREATE_TABLE: 'true',
  SHARDLINE_LOAD_RECORDS: 'true',
  SHARDLINE_MAP_TTL_MS: '50',
  REQUEST_TIMEOUT_MS: '1000',
  SHARDLINE_RESHARD_LEASE_MS: '2000',
};
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * The autopilot where the fleet runs (docs/autopilot.md): the built Lambda bundle given
 * EventBridge's scheduled event, and the Worker's scheduled() fired as a Cron Trigger
 * fires it, each over its own DynamoDB Local table with every write on one shard.
 */
describe('the autopilot in scheduled invocations, on DynamoDB Local', () => {
  const random = seededRandom(20);
  const word = () => Array.from({ length: 6 }, () => LETTERS[Math.floor(random() * 26)]).join('');
  let dir: string;
  let configPath: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-scheduled-'));
    configPath = join(dir, 'config.json');
    writeFileSync(configPath, JSON.stringify(CONFIG));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes a batch of 20 new releases ("m…", shard 2 of 6) through `runtime`, into `ledger`. */
  const writeBatch = async (runtime: Fetcher, ledger: { pk: string; title: string }[]) => {
    const items = Array.from({ length: 20 }, () => ({
      pk: `p${ledger.length}-${word()}`,
      sk: 'book',
      title: `m${word()}`,
    }));
    const written = await post(runtime, '/collections/books/items/batch', { items });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    expect(written.body.failed).toEqual([]);
    ledger.push(...items);
  };

  /**
   * New releases: every write in "m…" (shard 2 of 6) for three minutes and at least 400 items (six shards
   * cut from 40 keys are uneven for new keys by chance alone). Each minute's writes are sent at once, and
   * the minute ended by `endMinute`, which moves the runtime's clock.
   */
  const writeHot = async (runtime: Fetcher, endMinute: () => unknown) => {
    const ledger: { pk: string; title: string }[] = [];
    for (let minute = 0; minute < HOT_MINUTES; minute++) {
      while (ledger.length < ((minute + 1) * HOT_ITEMS) / HOT_MINUTES) await writeBatch(runtime, ledger);
      await endMinute();
    }
    // A request in a minute after the last one written writes it (the Worker after answering, with
    // waitUntil): poll /load over every minute written until it counts every write.
    await vi.waitFor(
      async () => {
        const all = (await get(runtime, `/collections/books/load?minutes=${HOT_MINUTES + 2}`)).body;
        const writes = all.shards.reduce((sum: number, s: { writesPerSecond: number }) => sum + s.writesPerSecond, 0);
        expect(Math.round(writes * all.windowSeconds), JSON.stringify(all)).toBe(ledger.length);
      },
      { timeout: 10_000, interval: 50 },
    );
    const load = await get(runtime, '/collections/books/load?minutes=2');
    expect(load.body.shards[2].writesPerSecond, JSON.stringify(load.body)).toBeGreaterThan(0);
    return ledger;
  };

  /** The walk of the whole listing lists every item written, in byte order of title, then pk. */
  const expectExactListing = async (runtime: Fetcher, ledger: { pk: string; title: string }[]) => {
    const expected = [...ledger].sort((x, y) => compareKeys(x.title, y.title) || compareKeys(x.pk, y.pk));
    expect((await listing(runtime, 'books')).map((item) => item.pk)).toEqual(expected.map((item) => item.pk));
  };

  /** The hot range now spreads: no shard gets more than twice its fair share of new "m…" keys. */
  const expectSpread = async (runtime: Fetcher) => {
    const info = await get(runtime, '/collections/books');
    expect(info.body).toMatchObject({ strategy: 'range', map: { version: 2, phase: 'stable' } });
    const counts = new Array<number>(info.body.shardCount).fill(0);
    for (let i = 0; i < 120; i++) {
      const route = await get(runtime, `/collections/books/route?key=m${word()}`);
      counts[route.body.shards[0]]! += 1;
    }
    const seen = JSON.stringify({ counts, collection: info.body });
    expect(Math.max(...counts), seen).toBeLessThanOrEqual((2 * 120) / counts.length);
  };

  /** The Lambda's steps over its hot range: one cut short by the time left, and the next that finishes it. */
  const lambdaSteps = async (lambda: LambdaRuntime, date: MovedDate) => {
    const ledger = await writeHot(lambda, () => date.nextMinute(MINUTE_MS));
    const movedTo = date.now();
    const invoke = async (remainingMs: number) => {
      const context = {
        functionName: 'autopilot',
        awsRequestId: randomUUID(),
        getRemainingTimeInMillis: () => remainingMs,
      };
      const answer = (await lambda.handler(scheduledEvent(), context)) as unknown as { steps: StepRecord[] };
      expect(answer.steps).toHaveLength(1);
      return answer.steps[0]!;
    };

    // 1.5 s left: the step starts the reshard, which stops at a safe point in its first settle wait (~2 s).
    const cut = await invoke(1500);
    expect(cut, JSON.stringify(cut)).toMatchObject({
      action: 'reshard',
      target: { kind: 'range' },
      reshard: { code: 130 },
    });
    // The step's clock is the moved one (the machine's is minutes behind it).
    expect(Date.parse(cut.at)).toBeGreaterThanOrEqual(movedTo);
    expect((await get(lambda, '/collections/books')).body.map.phase).not.toBe('stable');

    // The next minute's invocation picks it up from its checkpoint and finishes it.
    const resumed = await invoke(120_000);
    expect(resumed, JSON.stringify(resumed)).toMatchObject({
      reason: 'resumed the reshard to v2 and finished it',
      reshard: { code: 0, last: expect.stringMatching(/books: stable on v2/) },
    });
    await expectSpread(lambda);
    await expectExactListing(lambda, ledger);
  };

  it('Lambda: a Schedule event runs a step; a reshard cut short by the time left goes on at the next', async () => {
    const outDir = join(dir, 'lambda');
    await buildLambdaFolder(outDir, configPath);
    const table = `t-${randomUUID()}`;
    // The bundle runs in this process: its Date is the one moved here, from its init on.
    const date = fakeDate();
    try {
      const lambda = await loadLambdaRuntime(join(outDir, 'index.mjs'), {
        ...FAST,
        DYNAMODB_ENDPOINT: inject('engines').dynamodbLocal,
        TABLE_NAME: table,
      });
      await lambdaSteps(lambda, date);
    } finally {
      date.restore();
    }
  }, 120_000);

  it("Worker: a Cron Trigger's scheduled() reshards the hot range, and the step is kept in the table", async () => {
    const bundle = join(dir, 'worker-bundle.json');
    writeConfigBundle(configPath, bundle);
    const table = `t-${randomUUID()}`;
    const endpoint = inject('engines').dynamodbLocal;
    const worker = await startWorkerRuntime(
      { ...FAST, DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: table },
      { cronConfigBundle: bundle },
    );
    try {
      const ledger = await writeHot(worker, () => worker.nextMinute(MINUTE_MS));
      expect(await worker.scheduled('* * * * *')).toBe('200 ok');
      await expectSpread(worker);
      await expectExactListing(worker, ledger);

      // What the operator reads: `npm run autopilot -- --status --json` finds the Worker's step.
      let out = '';
      const env = cliEnv(endpoint, table, configPath, FAST);
      const code = await autopilotCli(['--status', '--json'], { stdout: (t) => (out += t), stderr: () => {}, env });
      expect(code).toBe(0);
      const [kept] = JSON.parse(out);
      expect(kept.decisions).toMatchObject([{ action: 'reshard', reshard: { code: 0 }, routers: 1 }]);
      // The step's clock is the Worker's, moved on by three minutes less the writing's seconds: over a
      // minute ahead of the machine's.
      expect(Date.parse(kept.decisions[0].at) - Date.now()).toBeGreaterThan(MINUTE_MS);
    } finally {
      await worker.close();
    }
  }, 120_000);
});
