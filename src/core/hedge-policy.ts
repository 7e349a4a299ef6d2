/**
 * When to hedge a shard query (docs/performance.md, "Hedged shard queries"): at the group's recent p95, once
 * it has a latency history, within a token budget per group (each query earns `ratio` of a token, a hedge
 * spends one): a collection that is always slow cannot spend what a quiet one saved.
 */
export interface HedgeOptions {
  /** Most hedges per query sent, over time (0.05: at most one extra query in twenty). */
  readonly ratio: number;
  /** Tokens a quiet spell can save up, for a burst of slow shards (a small purse runs dry: docs/performance.md). */
  readonly burst: number;
  /** Latencies kept per group: the p95 is of the most recent ones. */
  readonly window: number;
  readonly minSamples: number;
}

export const DEFAULT_HEDGE: HedgeOptions = { ratio: 0.05, burst: 50, window: 256, minSamples: 32 };

export class HedgePolicy {
  private readonly groups = new Map<string, HedgeGroup>();

  constructor(private readonly options: HedgeOptions = DEFAULT_HEDGE) {
    if (!(options.ratio > 0 && options.ratio < 1)) throw new RangeError('hedge ratio must be in (0, 1)');
  }

  /** A query of `group` is about to be sent and earns its share of a token: when to hedge it (never: undefined). */
  delayFor(group: string): number | undefined {
    const state = this.group(group);
    state.tokens = Math.min(this.options.burst, state.tokens + this.options.ratio);
    return state.p95(this.options.minSamples);
  }

  /** A hedge of a `group` query is due: whether the group has a token for it (then spent). */
  trySpend(group: string): boolean {
    const state = this.group(group);
    if (state.tokens < 1) return false;
    state.tokens -= 1;
    return true;
  }

  /** `ms`: the winning answer's time, hedged or not. */
  answered(group: string, ms: number): void {
    this.group(group).add(ms);
  }

  private group(name: string): HedgeGroup {
    const state = this.groups.get(name) ?? new HedgeGroup(this.options.window);
    this.groups.set(name, state);
    return state;
  }
}

/** One group's hedge tokens and its most recent latencies, in a ring (the p95 re-sorted once per 16 samples). */
class HedgeGroup {
  tokens = 0;
  private readonly samples: Float64Array;
  private count = 0;
  private next = 0;
  private cached: number | undefined;
  private sinceSort = 0;

  constructor(size: number) {
    this.samples = new Float64Array(size);
  }

  add(ms: number): void {
    this.samples[this.next] = ms;
    this.next = (this.next + 1) % this.samples.length;
    this.count = Math.min(this.count + 1, this.samples.length);
    this.sinceSort++;
  }

  p95(minSamples: number): number | undefined {
    if (this.count < minSamples) return undefined;
    if (this.cached === undefined || this.sinceSort >= 16) {
      const sorted = this.samples.slice(0, this.count).sort();
      this.cached = sorted[Math.min(this.count - 1, Math.floor(this.count * 0.95))];
      this.sinceSort = 0;
    }
    return this.cached;
  }
}
