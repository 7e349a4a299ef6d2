import { vi } from 'vitest';

/**
 * Time for services built in-process (their load minutes, the shard maps' TTL), moved by the test
 * instead of waited out: the machine's clock shifted by what the test adds and takes back. Kept
 * behind or level with the machine's clock where a reader on real time (the autopilot in another
 * process) must see the minutes it stamps as ended.
 */
export class TestClock {
  private offsetMs: number;

  /** `behindMs` behind the machine's clock. */
  constructor(behindMs = 0) {
    this.offsetMs = -behindMs;
  }

  readonly now = (): number => Date.now() + this.offsetMs;

  /** Moves the clock `ms` on at once: minutes end and TTLs pass without a wait. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** Sets the clock `ms` back: minutes already past, for the test to live through at its own pace. */
  goBack(ms: number): void {
    this.offsetMs -= ms;
  }
}

/**
 * The process's own Date, moved by the test, for code that reads the machine's clock where no clock is
 * passed in (a reshard stamps its phases with Date.now; a Lambda bundle builds its service itself). Date
 * alone is faked, and it still runs at the machine's pace, so waits on real timers (a reshard's settle
 * time) end as they would; `advance` moves it on at once. Code that kept the real Date.now before
 * `fakeDate()` was called still reads the machine's clock: install it first.
 */
export function fakeDate(): MovedDate {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  return {
    now: () => Date.now(),
    advance: (ms) => vi.setSystemTime(Date.now() + ms),
    nextMinute: (minuteMs) => vi.setSystemTime(Date.now() - (Date.now() % minuteMs) + minuteMs),
    restore: () => vi.useRealTimers(),
  };
}

export interface MovedDate {
  /** Date.now, read when called: the moved clock while it is installed. */
  readonly now: () => number;
  /** Moves the clock `ms` on at once. */
  advance(ms: number): void;
  /** Moves the clock on to the start of the next minute of `minuteMs`: the minute under way has ended. */
  nextMinute(minuteMs: number): void;
  /** The machine's Date again. */
  restore(): void;
}
