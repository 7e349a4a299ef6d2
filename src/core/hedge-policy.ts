/**
 * When to hedge a shard query (Dean & Barroso, "The Tail at Scale"): a page waits for its slowest
 * shard, so a query unanswered at a high quantile of the group's recent latencies (DEFAULT_HEDGE)
 * is sent again and the first answer wins.
 * No hedging until the group has a latency history, and a token budget per group (each query
 * earns `ratio` of a token, a hedge spends one, none at the start) keeps each group's hedges
 * under `ratio` of its own queries: a collection that is always slow cannot spend what a quiet one
 * saved, and what hedging costs a collection is what its own figures say.
 */
export interface HedgeOptions {
  /** Most hedges per query sent, over time (0.05: at most one extra query in twenty). */
  readonly ratio: number;
  /**
   * Tokens a quiet spell can save up, so a burst of slow shards can still be hedged. Hedging at
   * the p95 asks for about `ratio` hedges per query, what the budget earns: with a small purse the
   * tokens often run out just when a page's shards are slow (scripts/bench/sim-hedge-budget.ts:
   * on 21-shard pages a purse of 5 leaves 10% of slow queries unhedged, one of 10 or more 4%).
   */
  readonly burst: number;
  /** Latencies kept per group (and apart for its follow-ups): the quantiles are of the most recent ones. */
  readonly window: number;
  readonly minSamples: number;
  /** The quantile of the group's recent latencies at which a query is hedged. */
  readonly at: number;
  /**
   * The same for a follow-up query (sent after its page's first round trip): the page has
   * waited one round trip already and now waits on a few queries alone, so a hedge there cuts
   * its time the most (see DEFAULT_HEDGE).
   */
  readonly followUpAt: number;
}

/**
 * Hedging at the p95 asks for exactly the 5% the budget earns, so a run of slow answers empties
 * the purse and slow queries go unhedged; at the p97 it seldom runs dry, and what that saves
 * hedges follow-ups at their p75. Simulated over independent partitions, as DynamoDB's answer
 * (scripts/bench/sim-hedge-budget.ts: 21 shards, 24% of pages with a second wave), the page p99
 * is 1.41× one query's instead of 1.53×, and lower at every share of second waves from 0 to 40%.
 * On DynamoDB Local the p99 moved within its noise and hedges fell from 4.9% to 3.4–4.0% of queries
 * (docs/performance.md, "Hedging follow-ups sooner").
 */
export const DEFAULT_HEDGE: HedgeOptions = {
  ratio: 0.05,
  burst: 50,
  window: 256,
  minSamples: 32,
  at: 0.97,
  followUpAt: 0.75,
};

export class HedgePolicy {
  private readonly groups = new Map<string, HedgeGroup>();

  constructor(private readonly options: HedgeOptions = DEFAULT_HEDGE) {
    if (!(options.ratio > 0 && options.ratio < 1)) throw new RangeError('hedge ratio must be in (0, 1)');
  }

  /** A query of `group` is about to be sent and earns its share of a token: when to hedge it (never: undefined). */
  delayFor(group: string, followUp = false): number | undefined {
    const { burst, ratio, at, followUpAt, minSamples } = this.options;
    const state = this.group(group);
    state.tokens = Math.min(burst, state.tokens + ratio);
    return followUp ? state.followUps.quantile(followUpAt, minSamples) : state.firsts.quantile(at, minSamples);
  }

  /** A hedge of a `group` query is due: whether the group has a token for it (then spent). */
  trySpend(group: string): boolean {
    const state = this.group(group);
    if (state.tokens < 1) return false;
    state.tokens -= 1;
    return true;
  }

  /** `ms`: the winning answer's time, hedged or not. */
  answered(group: string, ms: number, followUp = false): void {
    const state = this.group(group);
    (followUp ? state.followUps : state.firsts).add(ms);
  }

  private group(name: string): HedgeGroup {
    let state = this.groups.get(name);
    if (state === undefined) {
      state = {
        tokens: 0,
        firsts: new LatencyWindow(this.options.window),
        followUps: new LatencyWindow(this.options.window),
      };
      this.groups.set(name, state);
    }
    return state;
  }
}

/**
 * One group's hedge tokens, and its recent latencies apart for follow-ups: a first wave's queries
 * answer later than the few a follow-up sends (on DynamoDB Local, which serves them in turn, and
 * through the client's sockets), so a follow-up's quantile is of follow-ups alone.
 */
interface HedgeGroup {
  tokens: number;
  readonly firsts: LatencyWindow;
  readonly followUps: LatencyWindow;
}

/** The most recent latencies, in a ring (re-sorted for their quantiles once per 16 new samples, not per query). */
class LatencyWindow {
  private readonly samples: Float64Array;
  private count = 0;
  private next = 0;
  private sorted: Float64Array | undefined;
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

  quantile(at: number, minSamples: number): number | undefined {
    if (this.count < minSamples) return undefined;
    if (this.sorted === undefined || this.sinceSort >= 16) {
      this.sorted = this.samples.slice(0, this.count).sort();
      this.sinceSort = 0;
    }
    return this.sorted[Math.min(this.sorted.length - 1, Math.floor(this.sorted.length * at))];
  }
}
