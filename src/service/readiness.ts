import type { CollectionSpec } from '../core/collection';
import { ShardlineError } from '../core/errors';
import type { Store } from '../store/store';
import type { MapSource } from './map-source';
import type { RequestContext } from './metrics/request-tally';

/** How long one check's answer stands: probes within it are answered from it, without a call. */
export const CHECK_EVERY_MS = 1000;
/** An answer older than this is not given while a newer check runs: the probe checks for itself. */
const STALE_ANSWER_MS = 10_000;

interface Answer {
  readonly at: number;
  readonly failure?: ShardlineError;
}

/**
 * Whether the service can serve (`/healthz`): every table answers, and some collection's shard maps can be
 * routed by (with every one stale each request is a 503 `map_stale`, and so is the probe). One check a second
 * at most: a probe arriving while a check runs gets the last answer (up to 10 s old) rather than waiting, so
 * an overloaded DynamoDB slows the checks, not the probes. Only answers are shared between requests, never the
 * check's promise (on workerd a request may not wait on I/O another request started).
 */
export class Readiness {
  private answer: Answer | undefined;
  private checkingSince: number | undefined;

  constructor(
    private readonly store: Store,
    private readonly maps: MapSource,
    private readonly collections: readonly CollectionSpec[],
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when ready; throws the reason (a 503 or 504 `ShardlineError`) when not. */
  async check(context: RequestContext): Promise<void> {
    const known = this.answer;
    const age = known ? this.now() - known.at : Number.POSITIVE_INFINITY;
    const checking = this.checkingSince !== undefined && this.now() - this.checkingSince < STALE_ANSWER_MS;
    const answer = age < CHECK_EVERY_MS || (checking && age < STALE_ANSWER_MS) ? known! : await this.checkNow(context);
    if (answer.failure) throw answer.failure;
  }

  private async checkNow(context: RequestContext): Promise<Answer> {
    const started = this.now();
    this.checkingSince = started;
    const failure = await this.failure(context);
    const answer = { at: started, ...(failure && { failure }) };
    // Two checks may cross: keep the one begun later. A probe that went away says nothing about the service.
    const telling = failure?.code !== 'client_closed';
    if (telling && (!this.answer || this.answer.at <= started)) this.answer = answer;
    if (this.checkingSince === started) this.checkingSince = undefined;
    return answer;
  }

  private async failure(context: RequestContext): Promise<ShardlineError | undefined> {
    const tables = [...new Set(this.collections.map((spec) => spec.table))];
    try {
      await Promise.all(tables.map((table) => this.store.ping(table, context)));
    } catch (error) {
      return asUnavailable(error);
    }
    if (this.collections.length === 0) return undefined;
    const routed = await Promise.allSettled(this.collections.map((spec) => this.maps.snapshot(spec, context)));
    if (routed.some((outcome) => outcome.status === 'fulfilled')) return undefined;
    return asUnavailable((routed[0] as PromiseRejectedResult).reason);
  }
}

/** A failed check as the 503 (or the deadline's 504) a probe answers; anything else unexpected says unavailable. */
function asUnavailable(error: unknown): ShardlineError {
  // `internal`: a refusal with no code of its own (access denied, say), or a bug. A probe says so as a 503.
  if (error instanceof ShardlineError && error.code !== 'internal') return error;
  return new ShardlineError('unavailable', `the service cannot serve: ${(error as Error).message}`, {
    retryable: true,
  });
}
