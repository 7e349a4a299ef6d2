import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../devtools/random';
import { newestEndStream, streamShare } from '../../../src/autopilot/newest-end';
import type { WriteSample } from '../../../src/load/fleet-load';
import { ordersWindow, WHALE_SHARD } from '../../support/orders-load';

const detect = (load: ReturnType<typeof ordersWindow>) => newestEndStream(load.window, load.minutes);
const samples = (values: readonly string[]): WriteSample[] => values.map((value) => ({ value, units: 2 }));

/**
 * The rule (docs/autopilot.md): per shard, each minute's samples are held against the values
 * sampled on it in the window's earlier minutes; a run of at least 8 of them in one gap between
 * those values (none equal to one), and more where the past is sparse, is a stream past every
 * earlier write around it. The largest run of each minute, in units, over those minutes' units.
 */
describe('writes at the newest end of a range (time-ordered keys)', () => {
  it("finds a whale's orders, one a second above all its earlier ones, on its shard", () => {
    const stream = detect(ordersWindow(() => ({ whale: 60, background: 5 })));
    expect(stream?.shard).toBe(WHALE_SHARD);
    // 60 of the shard's 65 writes a minute.
    expect(stream!.share).toBeGreaterThan(0.85);
    expect(stream!.share).toBeLessThanOrEqual(1);
  });

  it('finds nothing where the hot shard is written all over its range', () => {
    // A backfill: random customers of the shard, random past dates, as many writes as the whale's.
    const stream = detect(ordersWindow(() => ({ spread: 60, background: 5 })));
    expect(stream?.share ?? 0).toBeLessThan(0.05);
    // And at 256 samples a shard and minute, the most a router keeps.
    expect(detect(ordersWindow(() => ({ spread: 2000, background: 5 })))?.share ?? 0).toBeLessThan(0.05);
  });

  it("counts only the largest stream: many customers' time-ordered orders are spread writes", () => {
    // Every customer of the shard places its next order in turn, 16 a minute each: each a stream, none large.
    const stream = detect(ordersWindow(() => ({ manyCustomers: 800, background: 5 })));
    expect(stream?.share ?? 0).toBeLessThan(0.1);
  });

  it('measures the share of one stream among spread writes', () => {
    // 60 whale orders among 90 spread ones a minute: 39% of the shard's writes.
    const stream = detect(ordersWindow(() => ({ whale: 60, spread: 90, background: 5 })));
    expect(stream?.shard).toBe(WHALE_SHARD);
    expect(stream!.share).toBeGreaterThan(0.3);
    expect(stream!.share).toBeLessThan(0.5);
  });

  it('weighs minutes by their writes: a whale that began late in the window counts for its minutes', () => {
    // Quiet for seven minutes, then the whale: only its three minutes carry load.
    const stream = detect(ordersWindow((m) => (m < 7 ? { background: 5 } : { whale: 60, background: 5 })));
    expect(stream?.shard).toBe(WHALE_SHARD);
    expect(stream!.share).toBeGreaterThan(0.6);
  });

  it('never takes a key written again, or a sparse past, for a stream', () => {
    // One hot key, written again and again: equal to earlier values, never past them.
    expect(streamShare([samples(Array(100).fill('hot')), samples(Array(100).fill('hot'))])).toBe(0);
    // Three earlier values leave four wide gaps: 200 random new ones fill them by chance, not as a stream.
    const random = seededRandom(3);
    const word = () => String(Math.floor(random() * 1e9)).padStart(9, '0');
    expect(streamShare([samples(['2', '5', '7']), samples(Array.from({ length: 200 }, word))])).toBe(0);
    // A window of one minute has no earlier minute to compare with.
    expect(streamShare([samples(Array.from({ length: 100 }, (_, i) => `t${1000 + i}`))])).toBe(0);
  });

  it('reads runs in code point order, not by arrival within a minute', () => {
    // The same values in reverse arrival order within each minute: still above every earlier minute's.
    const minute = (m: number) => samples(Array.from({ length: 20 }, (_, i) => `t${1000 + m * 20 + (19 - i)}`));
    expect(streamShare([minute(0), minute(1), minute(2)])).toBe(1);
    // The same stream, run backwards across minutes: each below every earlier one, as unsplittable.
    expect(streamShare([minute(2), minute(1), minute(0)])).toBe(1);
  });
});
