import { describe, expect, it } from 'vitest';
import type { LoadRecord } from '../../../src/load/load-record';
import { checkLoadRecord } from '../../../src/load/load-record-check';
import { LoadMeter } from '../../../src/load/load-meter';

const MINUTE = 60_000;

/** A record as a router writes it: a minute of writes, reads and a throttle on shard 2. */
function routerRecord(): LoadRecord {
  const meter = new LoadMeter('router-a', MINUTE);
  const at = 10 * MINUTE + 5;
  meter.wrote('albums', 1, 0, 'blue', 1, at);
  meter.wrote('albums', 1, 2, 'red', 2, at);
  meter.queried('albums', 1, 1, 3, 1.5, ['blue', 'green'], at);
  meter.throttled('albums', 1, 2, at);
  const [record] = meter.take(12 * MINUTE);
  return record!;
}

const expected = { collection: 'albums', minute: 10 * MINUTE };
const edited = (change: (record: Record<string, any>) => void) => {
  const record = JSON.parse(JSON.stringify(routerRecord()));
  change(record);
  return JSON.stringify(record);
};

describe('checkLoadRecord', () => {
  it('reads back what a router writes, figures as written', () => {
    const record = routerRecord();
    expect(checkLoadRecord(JSON.stringify(record), expected)).toEqual(record);
  });

  it('names what is wrong with a forged or damaged record, never returning its figures', () => {
    const forged: [string, unknown][] = [
      ['not JSON', '{"collection": "albums", '],
      ['not a string', 42],
      ['a sketch of capacity 0 (the autopilot crash)', edited((r) => (r.written.capacity = 0))],
      ['a fractional capacity', edited((r) => (r.read.capacity = 2.5))],
      ['more counters than capacity', edited((r) => (r.written.capacity = 1))],
      ['negative throttles', edited((r) => (r.figures.throttles = [0, 0, -5]))],
      ['throttles as text', edited((r) => (r.figures.throttles = ['9']))],
      ['an infinite count', edited((r) => (r.figures.writes = [1]))?.replace('"writes":[1]', '"writes":[1e999]')],
      ['a figure missing', edited((r) => delete r.figures.queries)],
      ['a million shards', edited((r) => (r.figures.throttles = new Array(1_000_000).fill(1)))],
      ['a zero-length minute', edited((r) => (r.minuteMs = 0))],
      ['another minute than its partition', edited((r) => (r.minute = 9 * MINUTE))],
      ['another collection', edited((r) => (r.collection = 'albums-hash'))],
      ['no router', edited((r) => (r.router = ''))],
      ['a map version 0', edited((r) => (r.mapVersion = 0))],
      ['samples that are not strings', edited((r) => (r.writeSamples = [[1, 2]]))],
      ['null', 'null'],
    ];
    for (const [what, text] of forged) {
      const checked = checkLoadRecord(text, expected);
      expect(typeof checked, `${what}: ${JSON.stringify(checked).slice(0, 200)}`).toBe('string');
    }
    expect(
      checkLoadRecord(
        edited((r) => (r.figures.throttles = [0, 0, 7])),
        expected,
      ),
    ).toMatchObject({
      figures: { throttles: [0, 0, 7] },
    });
  });
});
