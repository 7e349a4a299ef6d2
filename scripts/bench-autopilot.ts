import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { seededRandom } from '../devtools/random';
import type { StepRecord } from '../src/autopilot/step';
import { autopilotCli } from '../src/cli/autopilot-cli';
import { numberArg, parseCommandLine } from '../src/cli/command-line';
import { buildService, prepareTables, type Service } from '../src/runtime/service';
import { readSettings } from '../src/runtime/settings';

const USAGE = `Usage: npm run bench:autopilot -- [--minute-ms MS] [--window M] [--shards N]

A shifting hotspot on DynamoDB Local, two routers over one table, the autopilot stepping
once per window: writes spread evenly, then all of them move into one key range ("c…"),
then into another ("r…"). For each hotspot it prints the largest ÷ mean shard load before
the step and one window after the re-cut, the time from the hotspot's start to balanced,
the write units the reshard spent moving index entries, and what the load records cost
(items written per router per minute). Minutes are shortened to --minute-ms (default 1000);
the autopilot's window is --window minutes (default 3); the range has --shards (default 13:
two letters each, so even writes are even).`;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

async function main(): Promise<void> {
  const options = parseCommandLine(
    'bench:autopilot',
    USAGE,
    { options: { 'minute-ms': { type: 'string' }, window: { type: 'string' }, shards: { type: 'string' } } },
    ({ values }) => ({
      minuteMs: values['minute-ms'] === undefined ? 1000 : numberArg('minute-ms', values['minute-ms'], { min: 200 }),
      window: values.window === undefined ? 3 : numberArg('window', values.window, { min: 1, integer: true }),
      shards: values.shards === undefined ? 13 : numberArg('shards', values.shards, { min: 2, integer: true }),
    }),
  );
  const boundaries = [
    '',
    ...Array.from({ length: options.shards - 1 }, (_, i) => LETTERS[Math.round(((i + 1) * 26) / options.shards)]!),
  ];
  const config = {
    collections: {
      books: {
        field: 'title',
        strategy: { kind: 'range', boundaries },
        autopilot: { windowMinutes: options.window, cooldownMinutes: 0, rate: 100_000 },
      },
    },
  };
  const engine = await startDynamoDbLocal();
  const dir = mkdtempSync(join(tmpdir(), 'shardline-bench-autopilot-'));
  try {
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    const env = {
      DYNAMODB_ENDPOINT: engine.endpoint,
      TABLE_NAME: 'shardline-autopilot-bench',
      SHARDLINE_CONFIG: join(dir, 'config.json'),
      CURSOR_SECRET: 'bench',
      LOG_LEVEL: 'off',
      SHARDLINE_MAP_TTL_MS: '100',
      SHARDLINE_LOAD_MINUTE_MS: String(options.minuteMs),
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
      SHARDLINE_RESHARD_LEASE_MS: '2000',
    };
    const routers = [0, 1].map(() =>
      buildService(readSettings(env), config, {
        client: { credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } },
      }),
    );
    await prepareTables(routers[0]!, true, false);
    const random = seededRandom(7);
    const word = () => Array.from({ length: 7 }, () => LETTERS[Math.floor(random() * 26)]).join('');
    let written = 0;
    let recordsWritten = 0;
    // Minutes in which the routers wrote: a router writes a record only for a minute it worked in.
    const activeMinutes = new Set<number>();
    const writeFor = async (minutes: number, title: () => string) => {
      const until = Date.now() + minutes * options.minuteMs;
      while (Date.now() < until) {
        await writeRound(
          routers,
          title,
          () => written++,
          (records) => (recordsWritten += records),
        );
        activeMinutes.add(Math.floor(Date.now() / options.minuteMs));
      }
      await sleep(options.minuteMs);
      for (const router of routers) recordsWritten += await router.load!.flush();
    };
    const step = async (): Promise<StepRecord> => {
      let out = '';
      await autopilotCli(['--once'], { stdout: (text) => (out += text), stderr: () => {}, env });
      return JSON.parse(out.trim().split('\n').at(-1)!) as StepRecord;
    };
    const started = Date.now();
    process.stderr.write(`even writes for ${options.window + 1} minutes of ${options.minuteMs} ms…\n`);
    await writeFor(options.window + 1, () => `${LETTERS[Math.floor(random() * 26)]}${word()}`);
    const even = await step();
    const rows: string[] = [`even load: ${even.action} (${even.reason}), largest ÷ mean ${fmt(even.imbalance)}`];
    for (const prefix of ['c', 'r']) {
      const hotSince = Date.now();
      process.stderr.write(`hotspot "${prefix}…"…\n`);
      await writeFor(options.window + 1, () => `${prefix}${word()}`);
      const moved = await step();
      const balancedAt = Date.now();
      await writeFor(options.window + 1, () => `${prefix}${word()}`);
      const after = await step();
      const units = /([\d,]+) write units/.exec(moved.reshard?.last ?? '')?.[1] ?? '-';
      rows.push(
        `hotspot "${prefix}…": ${moved.action} (${moved.reason}); largest ÷ mean ${fmt(moved.imbalance)} before, ` +
          `${fmt(after.imbalance)} one window after (predicted ${fmt(moved.predictedImbalance ?? null)}); ` +
          `balanced ${((balancedAt - hotSince) / 1000).toFixed(1)} s after it began ` +
          `(${options.window + 1} minutes of ${options.minuteMs} ms to see it, then the reshard); ` +
          `${units} write units moving entries; next step: ${after.action}`,
      );
    }
    rows.push(
      `load records: ${recordsWritten} items for ${written.toLocaleString('en-US')} writes in ${activeMinutes.size} ` +
        `busy minutes of ${((Date.now() - started) / options.minuteMs).toFixed(0)}: ` +
        `${(recordsWritten / routers.length / activeMinutes.size).toFixed(2)} per router per busy minute ` +
        '(one collection: at most 1)',
    );
    console.log(rows.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await engine.stop();
  }
}

let sequence = 0;

async function writeRound(
  routers: Service[],
  title: () => string,
  count: () => void,
  flushed: (records: number) => void,
): Promise<void> {
  await Promise.all(
    routers.map(async (router, r) => {
      const items = Array.from({ length: 25 }, () => ({ pk: `r${r}-${sequence++}`, sk: 'book', title: title() }));
      const response = await router.app.request('/collections/books/items/batch', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items }),
      });
      if (response.status !== 200) throw new Error(`batch answered ${response.status}`);
      for (const _ of items) count();
      flushed(await router.load!.flush());
    }),
  );
}

const fmt = (value: number | null) => (value === null ? '-' : value.toFixed(2));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
