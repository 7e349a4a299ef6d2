import { describe, expect, it, vi } from 'vitest';
import { reshardProgress } from '../../../src/cli/reshard-progress';
import type { MigrationProgress } from '../../../src/core/shard-map';

const PROGRESS: MigrationProgress = {
  pass: 'backfill',
  scanned: 1200,
  members: 900,
  moved: 850,
  invalid: 0,
  conflicts: 0,
  segmentsDone: 2,
  segments: 8,
  startedAt: Date.now() - 10_000,
};

describe('reshard progress without a terminal', () => {
  it('writes a line with the counts on a timer, not only when a page arrives, until stopped', () => {
    // A fake clock: the timer's lines are counted exactly, and "none after stop" is not a matter of how long we wait.
    vi.useFakeTimers();
    try {
      const lines: string[] = [];
      const progress = reshardProgress(true, (text) => lines.push(text), { terminal: false, everyMs: 20 });
      progress.update(PROGRESS); // one page, then a long quiet spell (a slow --rate, a throttled table)
      vi.advanceTimersByTime(60);
      expect(lines).toHaveLength(3);
      expect(lines[2]).toMatch(/^reshard: backfill: 1,200 scanned, 900 members, 850 moved, \d+ items\/s\n$/);
      progress.stop();
      vi.advanceTimersByTime(10_000);
      expect(lines).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
