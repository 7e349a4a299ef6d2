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
