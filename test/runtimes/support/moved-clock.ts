/** The route of moved-clock-worker.ts that ends the Worker's minute under way. */
export const NEXT_MINUTE_PATH = '/__test/next-minute';

/**
 * Makes Date.now the machine's clock plus an offset that `nextMinute` moves on, for the Worker under test:
 * workerd reads the machine's clock, and no option of wrangler's moves it. The clock still runs at the
 * machine's pace, so real timers (a reshard's settle wait) end as they would. Call it before the code
 * under test first reads Date.now (shardline reads it at calls, never at a module's start). `new Date()`
 * keeps the machine's time: only stamps read it.
 */
export function moveDateNow(): { nextMinute(minuteMs: number): number } {
  const machineNow = Date.now.bind(Date);
  let offsetMs = 0;
  Date.now = () => machineNow() + offsetMs;
  return {
    /** Moves the clock on to the start of the next minute of `minuteMs`, and returns it. */
    nextMinute(minuteMs) {
      offsetMs += minuteMs - (Date.now() % minuteMs);
      return Date.now();
    },
  };
}
