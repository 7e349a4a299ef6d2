import type { MiddlewareHandler } from 'hono';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';

interface Bucket {
  tokens: number;
  updated: number;
}

/**
 * A token bucket per caller: `perSecond` requests a second on average, bursts of
 * up to `perSecond`. A caller is its API key (`key#N`); without API_KEYS every
 * caller shares one bucket (`anonymous`), since a client address is neither
 * portable across runtimes nor trustworthy behind proxies. Over the limit: 429
 * with `Retry-After` (seconds until a token is back). Paths in `exempt` (health
 * checks) are never limited. The number of buckets is bounded by the number of keys.
 */
export function rateLimit(
  perSecond: number,
  exempt: readonly string[],
  now: () => number = Date.now,
): MiddlewareHandler<AppEnv> {
  const buckets = new Map<string, Bucket>();
  const skip = new Set(exempt);
  return async (c, next) => {
    if (skip.has(c.req.path) || c.req.method === 'OPTIONS') return next();
    const caller = c.get('caller') ?? 'anonymous';
    const at = now();
    let bucket = buckets.get(caller);
    if (!bucket) {
      bucket = { tokens: perSecond, updated: at };
      buckets.set(caller, bucket);
    }
    bucket.tokens = Math.min(perSecond, bucket.tokens + ((at - bucket.updated) / 1000) * perSecond);
    bucket.updated = at;
    if (bucket.tokens < 1) {
      const seconds = Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
      throw new ShardlineError('rate_limited', `over ${perSecond} requests per second for this caller; retry later`, {
        retryAfterSeconds: seconds,
      });
    }
    bucket.tokens -= 1;
    return next();
  };
}
