/**
 * An adaptive concurrency limit in planned DynamoDB requests (docs/operations.md, "Admission control"). Only
 * work admitted since the last cut can cut again: a burst of slow answers to one overload cuts once, not once
 * per answer, which would collapse the limit. Work past the limit is refused, not queued: load is shed.
 */
export interface AdmissionOptions {
  readonly initialLimit: number;
  readonly minLimit: number;
  readonly maxLimit: number;
  readonly latencyTargetMs: number;
  readonly backoff: number;
}

/** A 21-shard listing weighs 21; the floor is what a 2-core router serves at full goodput (docs/performance.md). */
export const DEFAULT_ADMISSION: AdmissionOptions = {
  initialLimit: 1024,
  minLimit: 512,
  maxLimit: 8192,
  latencyTargetMs: 500,
  backoff: 0.9,
};

/** `generation`: the limit's when the work was admitted. */
export interface Admission {
  readonly weight: number;
  readonly generation: number;
}

export class AdmissionLimit {
  private limitValue: number;
  private inFlightWeight = 0;
  private fastAnswers = 0;
  /** Counts the cuts: work admitted before the latest one says nothing about the limit now. */
  private generation = 0;

  constructor(private readonly options: AdmissionOptions = DEFAULT_ADMISSION) {
    if (!(options.minLimit >= 1 && options.minLimit <= options.maxLimit)) throw new RangeError('bad admission bounds');
    if (!(options.backoff > 0 && options.backoff < 1)) throw new RangeError('backoff must be in (0, 1)');
    this.limitValue = clamp(options.initialLimit, options.minLimit, options.maxLimit);
  }

  get limit(): number {
    return this.limitValue;
  }

  get inFlight(): number {
    return this.inFlightWeight;
  }

  /** Work heavier than the whole limit is admitted when nothing else is in flight, so it never starves. */
  tryAcquire(weight: number): Admission | undefined {
    const w = Math.max(1, weight);
    if (this.inFlightWeight > 0 && this.inFlightWeight + w > this.limitValue) return undefined;
    this.inFlightWeight += w;
    return { weight: w, generation: this.generation };
  }

  release(admission: Admission, latencyMs: number): void {
    const w = admission.weight;
    this.inFlightWeight = Math.max(0, this.inFlightWeight - w);
    const { minLimit, maxLimit, latencyTargetMs, backoff } = this.options;
    if (latencyMs > latencyTargetMs) {
      if (admission.generation !== this.generation) return;
      this.generation++;
      this.fastAnswers = 0;
      this.limitValue = clamp(Math.floor(this.limitValue * backoff), minLimit, maxLimit);
      return;
    }
    this.fastAnswers += w;
    if (this.fastAnswers >= this.limitValue) {
      this.fastAnswers = 0;
      this.limitValue = clamp(this.limitValue + 1, minLimit, maxLimit);
    }
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
