import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { autopilotCli } from '../../src/cli/autopilot-cli';
import { LoadMeter } from '../../src/load/load-meter';
import type { Service } from '../../src/runtime/service';
import { cliEnv } from '../reshard/processes';
import { putBehindTheBack } from '../support/behind-the-back';
import { get } from '../support/http';
import { startTestService } from '../support/service';

const MINUTE_MS = 2000;
const CONFIG = {
  collections: {
    books: {
      field: 'title',
      strategy: { kind: 'range', boundaries: ['', 'h', 'p'] },
      autopilot: { windowMinutes: 3, cooldownMinutes: 0, rate: 100_000 },
    },
  },
};
const FAST = { SHARDLINE_LOAD_RECORDS: 'true', SHARDLINE_LOAD_MINUTE_MS: String(MINUTE_MS) };

/**
 * Load records forged straight into the table, malformed in every way a reader could trip on, with
 * throttles enough to make any well-formed reading reshard: the autopilot reads them as absent, so it
 * runs, decides nothing, and `/load` stays a 200 with none of their numbers.
 */
describe('the autopilot over forged load records (DynamoDB Local)', () => {
  let dir: string;
  let env: Record<string, string>;
  let service: Service & { table: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-forged-load-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
    service = await startTestService('dynamodbLocal', { config: CONFIG, env: FAST });
    env = cliEnv(inject('engines').dynamodbLocal, service.table, join(dir, 'config.json'), FAST);
  });
  afterAll(async () => {
    service?.dynamo.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs, decides no reshard, and /load answers 200', async () => {
    const now = Date.now();
    const forged: object[] = [];
    for (let back = 1; back <= 3; back++) {
      const minute = now - (now % MINUTE_MS) - back * MINUTE_MS;
      const meter = new LoadMeter('forger', MINUTE_MS);
      for (let i = 0; i < 500; i++) meter.wrote('books', 1, 0, `a${i}`, 1, minute);
      for (let i = 0; i < 500; i++) meter.throttled('books', 1, 0, minute);
      const record = meter.take(minute + MINUTE_MS)[0]!;
      const item = (sk: string, body: unknown) => ({
        pk: `__shardline#load#books#${minute}`,
        sk,
        loadOf: 'books',
        record: typeof body === 'string' ? body : JSON.stringify(body),
      });
      forged.push(
        item('bad-json', '{"collection":'),
        item('capacity-0', { ...record, router: 'capacity-0', written: { ...record.written, capacity: 0 } }),
        item('negative', { ...record, router: 'negative', figures: { ...record.figures, throttles: [-50] } }),
        item('not-its-key', record),
      );
    }
    await putBehindTheBack(inject('engines').dynamodbLocal, service.table, forged);

    const io = { stdout: '', stderr: '' };
    const code = await autopilotCli(['--once', '--collection', 'books'], {
      stdout: (text) => (io.stdout += text),
      stderr: (text) => (io.stderr += text),
      env,
    });
    expect(code, io.stderr).toBe(0);
    expect(io.stderr).not.toMatch(/RangeError|at .*\.ts:\d+/);
    const decision = JSON.parse(io.stdout.trim().split('\n').at(-1)!);
    expect(decision.action, io.stdout).not.toBe('reshard');

    const load = await get(service.app, '/collections/books/load?minutes=3');
    expect(load.status, JSON.stringify(load.body)).toBe(200);
    expect(load.body).toMatchObject({ records: 0 });
  });
});
