import { describe, expect, inject, it } from 'vitest';
import { LoadMeter } from '../../src/load/load-meter';
import { autopilotHarness, lastDecision } from '../support/autopilot';
import { putBehindTheBack } from '../support/behind-the-back';
import { get } from '../support/http';

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
  const harness = autopilotHarness('forged-load', CONFIG, FAST);

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
    await putBehindTheBack(inject('engines').dynamodbLocal, harness.service.table, forged);

    const run = await harness.run(['--once', '--collection', 'books']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/RangeError|at .*\.ts:\d+/);
    expect(lastDecision(run.stdout).action, run.stdout).not.toBe('reshard');

    const load = await get(harness.service.app, '/collections/books/load?minutes=3');
    expect(load.status, JSON.stringify(load.body)).toBe(200);
    expect(load.body).toMatchObject({ records: 0 });
  });
});
