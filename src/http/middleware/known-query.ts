import type { RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { invalidRequest } from '../../core/errors';
import type { AppEnv } from '../env';

/**
 * Every route's (from `apiRoute`): refuses a query parameter its OpenAPI `request.query` schema does not list: a
 * misspelt one (`?limt=5`) silently ignored would answer another question. HEAD runs this as GET, OPTIONS never.
 */
export function declaredQueryOnly(route: Pick<RouteConfig, 'method' | 'path' | 'request'>): MiddlewareHandler<AppEnv> {
  const query = route.request?.query as { shape?: Record<string, unknown> } | undefined;
  const names = new Set(Object.keys(query?.shape ?? {}));
  const method = route.method.toUpperCase();
  const takes = names.size === 0 ? 'takes no query parameters' : `takes ${[...names].join(', ')}`;
  return async (c, next) => {
    if (!c.req.url.includes('?')) return next();
    for (const name of new URL(c.req.url).searchParams.keys()) {
      if (names.has(name)) continue;
      throw invalidRequest(`unknown query parameter ${JSON.stringify(name)}: ${method} ${route.path} ${takes}`, {
        parameter: name,
        allowed: [...names],
      });
    }
    return next();
  };
}

/** On every path but CORS preflights: a malformed `%`-escape in the query (`%zz`) is a 400, not taken literally. */
export function wellFormedQuery(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS' || !c.req.url.includes('?')) return next();
    for (const part of new URL(c.req.url).search.slice(1).split('&')) {
      try {
        decodeURIComponent(part.replaceAll('+', ' '));
      } catch {
        const what = 'the query holds a malformed %-escape (a % not followed by two hex digits of UTF-8)';
        throw invalidRequest(`${what}: ${JSON.stringify(part.slice(0, 100))}`);
      }
    }
    return next();
  };
}
