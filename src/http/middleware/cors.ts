import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../env';

/** Every method the API describes (docs/api.md), PATCH included: a preflight not naming one fails in the browser. */
export const CORS_METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The request headers the API reads beyond the CORS-safelisted ones: the key, JSON, conditional writes, tracing. */
export const CORS_REQUEST_HEADERS = [
  'Authorization',
  'Content-Type',
  'If-Match',
  'If-None-Match',
  'x-request-id',
] as const;

/** Response headers a page's script may read: without this list it sees only the safelisted few. */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'x-shard-queries',
  'x-round-trips',
  'x-shard-hedges',
  'x-items-read',
  'x-consumed-rcu',
  'x-consumed-wcu',
  'Server-Timing',
  'Retry-After',
  'x-request-id',
  'WWW-Authenticate',
  'Allow',
] as const;

/** CORS for the configured origins (CORS_ORIGINS) only: with none, no CORS header is sent and browsers keep out. */
export function corsFor(origins: readonly string[]): MiddlewareHandler<AppEnv> | undefined {
  if (origins.length === 0) return undefined;
  return cors({
    origin: origins.includes('*') ? '*' : [...origins],
    allowMethods: [...CORS_METHODS],
    allowHeaders: [...CORS_REQUEST_HEADERS],
    exposeHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: 600,
  });
}
