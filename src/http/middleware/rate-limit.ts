import type { MiddlewareHandler } from 'hono';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';

/** Failed authentications a client address may make per second (and in a burst) before its 429s. */
export const DEFAULT_AUTH_FAILURES_PER_SECOND = 10;

type Bucket = { tokens: number; updated: number };

/** Names may come from clients (addresses): past this many, the longest-unused bucket is forgotten (a full one). */
const MAX_BUCKETS = 10_000;

/** Token buckets by name: `perSecond` tokens a second on average, bursts of up to `perSecond`. */
export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();

  constructor(readonly perSecond: number) {}

  /** Seconds until `name` has a whole token again (0: it has one now); spends nothing. */
  waitFor(name: string): number {
    const bucket = this.#refill(name);
    return bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }

  /** Spends a token of `name`'s (its bucket may go below one: the next `waitFor` says how long). */
  spend(name: string): void {
    this.#refill(name).tokens -= 1;
  }

  #refill(name: string): Bucket {
    const at = Date.now();
    let bucket = this.#buckets.get(name);
    if (bucket) {
      this.#buckets.delete(name); // re-inserted below: the map's order is the order of last use
      bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((at - bucket.updated) / 1000) * this.perSecond);
      bucket.updated = at;
    } else {
      bucket = { tokens: this.perSecond, updated: at };
      if (this.#buckets.size >= MAX_BUCKETS) this.#buckets.delete(this.#buckets.keys().next().value as string);
    }
    this.#buckets.set(name, bucket);
    return bucket;
  }
}

/** The 429 for a caller over its limit, with `Retry-After`. */
export function rateLimited(seconds: number, message: string): ShardlineError {
  return new ShardlineError('rate_limited', message, { retryAfterSeconds: seconds });
}

/**
 * A token bucket per caller, its API key (`key#N`); without API_KEYS every caller shares one bucket (`anonymous`),
 * since a client address is neither portable across runtimes nor trustworthy behind proxies. Paths marked
 * `unlimited` are never limited. Requests that fail authentication never get here: bearerAuth limits them by address.
 */
export function rateLimit(perSecond: number): MiddlewareHandler<AppEnv> {
  const buckets = new TokenBuckets(perSecond);
  return async (c, next) => {
    if (c.get('unlimited') || c.req.method === 'OPTIONS') return next();
    const caller = c.get('caller') ?? 'anonymous';
    const wait = buckets.waitFor(caller);
    if (wait > 0) throw rateLimited(wait, `over ${perSecond} requests per second for this caller; retry later`);
    buckets.spend(caller);
    return next();
  };
}
