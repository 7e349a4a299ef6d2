import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../env';

/** CORS for the configured origins (CORS_ORIGINS) only: with none, no CORS header is sent and browsers keep out. */
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
