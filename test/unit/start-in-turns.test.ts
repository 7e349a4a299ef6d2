import { describe, expect, it } from 'vitest';
import { startInTurns } from '../../src/service/start-in-turns';

describe('startInTurns', () => {
  it('starts each call in a turn of its own and resolves with the results in order', async () => {
    const startedAt: number[] = [];
    // Counts turns of the event loop while the calls are being started.
    let turn = 0;
    const ticks = (async () => {
      for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r)).then(() => turn++);
    })();
    const results = await startInTurns([3, 1, 2], async (n) => {
      startedAt.push(turn);
      await new Promise((r) => setTimeout(r, n));
      return n * 10;
    });
    await ticks;
    expect(results).toEqual([30, 10, 20]);
    // A call never starts in the same turn as the one before it.
    expect(new Set(startedAt).size).toBe(3);
  });

  it('rejects with the first failure and starts nothing after it', async () => {
    const started: number[] = [];
    const run = startInTurns([0, 1, 2, 3, 4], async (n) => {
      started.push(n);
      if (n === 1) throw new Error(`call ${n} failed`);
      await new Promise((r) => setTimeout(r, 50));
      return n;
    });
    await expect(run).rejects.toThrow('call 1 failed');
    expect(started).toEqual([0, 1]);
  });
});
