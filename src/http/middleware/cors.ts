import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../env';

/**
 * CORS for browser callers, only for the configured origins (CORS_ORIGINS);
 * with none configured no CORS header is ever sent, so browsers keep other
 * origins out. Listing statistics, Retry-After and the request id are exposed to scripts.
 */
export function corsFor(origins: readonly string[]): MiddlewareHandler<AppEnv> | undefined {
  if (origins.length === 0) return undefined;
  return cors({
    origin: origins.includes('*') ? '*' : [...origins],
    allowMethods: ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type'],
    exposeHeaders: [
      'x-shard-queries',
      'x-round-trips',
      'x-shard-hedges',
      'x-items-read',
      'x-consumed-rcu',
      'Server-Timing',
      'Retry-After',
      'x-request-id',
    ],
    maxAge: 600,
  });
}
