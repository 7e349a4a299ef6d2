import type { MiddlewareHandler } from 'hono';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';

/** Failed authentications a second (and in a burst), per credential and address and of new credentials per address. */
export const DEFAULT_AUTH_FAILURES_PER_SECOND = 10;

type Bucket = { tokens: number; updated: number };

/** Names may come from clients (addresses, credentials): at most this many buckets are kept. */
export const MAX_BUCKETS = 10_000;

/**
 * Token buckets by name: `perSecond` tokens a second, bursts of up to `perSecond`, at most `capacity` buckets. A new
 * name past that replaces the longest-unused bucket only once it is full again (a new bucket starts full), so no
 * debt is ever forgotten; until then the new name gets no bucket and `spend` says so.
 */
export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    readonly perSecond: number,
    readonly capacity = MAX_BUCKETS,
  ) {}

  get size(): number {
    return this.#buckets.size;
  }

  /** Whether `name` has a bucket: it spent a token and its bucket has not been given up since. */
  has(name: string): boolean {
    return this.#buckets.has(name);
  }

  /** Seconds until `name` has a whole token again (0: it has one now); spends nothing. */
  waitFor(name: string): number {
    const bucket = this.#buckets.get(name);
    if (!bucket) return 0;
    this.#refill(bucket);
    return bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }

  /**
   * Spends a token of `name`'s (its bucket may go below one: the next `waitFor` says how long). False, spending
   * nothing, when `name` has no bucket and none can be kept for it: all `capacity` are in use and none is full.
   */
  spend(name: string): boolean {
    let bucket = this.#buckets.get(name);
    if (bucket) {
      this.#buckets.delete(name); // re-inserted below: the map's order is the order of last spend
      this.#refill(bucket);
    } else {
      if (this.#buckets.size >= this.capacity && !this.#forgetOldestIfFull()) return false;
      bucket = { tokens: this.perSecond, updated: Date.now() };
    }
    bucket.tokens -= 1;
    this.#buckets.set(name, bucket);
    return true;
  }

  /** The longest-unused bucket has had the longest to refill: if it is not full yet, it is the one to wait for. */
  #forgetOldestIfFull(): boolean {
    const [name, oldest] = this.#buckets.entries().next().value as [string, Bucket];
    if (this.#refill(oldest).tokens < this.perSecond) return false;
    this.#buckets.delete(name);
    return true;
  }

  #refill(bucket: Bucket): Bucket {
    const at = Date.now();
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((at - bucket.updated) / 1000) * this.perSecond);
    bucket.updated = at;
    return bucket;
  }
}

/** The 429 for a caller over its limit, with `Retry-After`. */
export function rateLimited(seconds: number, message: string): ShardlineError {
  return new ShardlineError('rate_limited', message, { retryAfterSeconds: seconds });
}

/**
 * A token bucket per caller (`key#N`); without API_KEYS every caller shares `anonymous`, since a client address is
 * neither portable across runtimes nor trustworthy behind proxies. Paths marked `unlimited` are never limited.
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
