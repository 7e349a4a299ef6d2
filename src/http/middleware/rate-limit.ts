import type { MiddlewareHandler } from 'hono';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';

/** Failed authentications a client address may make per second (and in a burst) before its 429s. */
export const DEFAULT_AUTH_FAILURES_PER_SECOND = 10;

interface Bucket {
  tokens: number;
  updated: number;
}

/**
 * Token buckets by name: `perSecond` tokens a second on average, bursts of up to `perSecond`.
 * At most `maxBuckets` are kept (names may come from clients: addresses); past that the
 * longest-unused one is forgotten, which only ever gives that name a fresh, full bucket.
 */
export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = Date.now,
    private readonly maxBuckets = 10_000,
  ) {}

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
    const at = this.now();
    let bucket = this.#buckets.get(name);
    if (bucket) {
      this.#buckets.delete(name); // re-inserted below: the map's order is the order of last use
      bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((at - bucket.updated) / 1000) * this.perSecond);
      bucket.updated = at;
    } else {
      bucket = { tokens: this.perSecond, updated: at };
      if (this.#buckets.size >= this.maxBuckets) this.#buckets.delete(this.#buckets.keys().next().value as string);
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
 * A token bucket per caller: `perSecond` requests a second on average, bursts of
 * up to `perSecond`. A caller is its API key (`key#N`); without API_KEYS every
 * caller shares one bucket (`anonymous`), since a client address is neither
 * portable across runtimes nor trustworthy behind proxies. Over the limit: 429
 * with `Retry-After` (seconds until a token is back). Paths marked `unlimited` (health
 * checks, by `app.use(path, unlimited())` before this) are never limited. The number of
 * buckets is bounded by the number of keys.
 * Requests that fail authentication never get here: bearerAuth limits them by address.
 */
export function rateLimit(perSecond: number, now: () => number = Date.now): MiddlewareHandler<AppEnv> {
  const buckets = new TokenBuckets(perSecond, now);
  return async (c, next) => {
    if (c.get('unlimited') || c.req.method === 'OPTIONS') return next();
    const caller = c.get('caller') ?? 'anonymous';
    const wait = buckets.waitFor(caller);
    if (wait > 0) throw rateLimited(wait, `over ${perSecond} requests per second for this caller; retry later`);
    buckets.spend(caller);
    return next();
  };
}

/** Marks the paths it is attached to (`app.use(path, unlimited())`) as ones rateLimit never counts. */
export function unlimited(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('unlimited', true);
    await next();
  };
}
