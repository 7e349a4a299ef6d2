import type { RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';

/**
 * One route's middleware (every route gets it from `apiRoute`, api-route.ts): refuses a query parameter the
 * route does not declare (`?limt=5` is a 400 naming `limt`). The names it takes are the ones its OpenAPI
 * `request.query` schema lists, so the document and the check can never disagree. A misspelt parameter
 * silently ignored would answer a different question than was asked. Hono's router picks the route, so
 * HEAD runs this as GET does and a CORS preflight (OPTIONS) never reaches it.
 */
export function declaredQueryOnly(route: Pick<RouteConfig, 'method' | 'path' | 'request'>): MiddlewareHandler<AppEnv> {
  const query = route.request?.query;
  const shape = (query as { shape?: Record<string, unknown> } | undefined)?.shape;
  // A query schema that is not an object lists no names to check against: leave it to its validator.
  if (query && !shape) return (_, next) => next();
  const names = new Set(Object.keys(shape ?? {}));
  const method = route.method.toUpperCase();
  const takes = names.size === 0 ? 'takes no query parameters' : `takes ${[...names].join(', ')}`;
  return async (c, next) => {
    // No `?`, no parameters: most requests are spared parsing their URL.
    if (!c.req.url.includes('?')) return next();
    for (const name of new URL(c.req.url).searchParams.keys()) {
      if (names.has(name)) continue;
      throw new ShardlineError(
        'invalid_request',
        `unknown query parameter ${JSON.stringify(name)}: ${method} ${route.path} ${takes}`,
        { parameter: name, allowed: [...names] },
      );
    }
    return next();
  };
}

/**
 * On every path (app.ts, for all routes): a malformed `%`-escape in the query (`%zz`, `%E0%A4` cut short) is a
 * 400. Taken literally, as the URL parsers do, it would answer for a value the client never meant. Not a matter
 * of routing, so one middleware for the whole app; CORS preflights are left alone.
 */
export function wellFormedQuery(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS' || !c.req.url.includes('?')) return next();
    const { search } = new URL(c.req.url);
    if (search.length > 1) refuseMalformedEscapes(search.slice(1));
    return next();
  };
}

function refuseMalformedEscapes(query: string): void {
  for (const part of query.split('&')) {
    try {
      decodeURIComponent(part.replaceAll('+', ' '));
    } catch {
      throw new ShardlineError(
        'invalid_request',
        'the query holds a malformed %-escape (a % not followed by two hex digits of UTF-8): ' +
          JSON.stringify(part.slice(0, 100)),
      );
    }
  }
}
