import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';

interface RouteParameters {
  readonly method: string;
  readonly path: string;
  readonly pattern: RegExp;
  readonly names: ReadonlySet<string>;
}

/**
 * Refuses a query parameter the route does not declare (`?limt=5` is a 400 naming `limt`),
 * on every route registered with `app.openapi`: the names a route takes are the ones its
 * OpenAPI `request.query` schema lists, so the document and the check can never disagree.
 * A misspelt parameter silently ignored would answer a different question than was asked.
 * Paths no OpenAPI route describes (static assets) are left alone; so are CORS preflights.
 * On every path, a malformed `%`-escape (`%zz`, `%E0%A4` cut short) is a 400: taken literally,
 * as the URL parsers do, it would answer for a value the client never meant.
 */
export function knownQueryParameters(app: OpenAPIHono<AppEnv>): MiddlewareHandler<AppEnv> {
  let routes: RouteParameters[] | undefined;
  return async (c, next) => {
    const url = new URL(c.req.url);
    if (url.search.length <= 1 || c.req.method === 'OPTIONS') return next();
    refuseMalformedEscapes(url.search.slice(1));
    // Built on the first request, once every route is registered.
    routes ??= declaredRoutes(app);
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    const route = routes.find((r) => r.method === method && r.pattern.test(url.pathname));
    if (!route) return next();
    for (const name of url.searchParams.keys()) {
      if (route.names.has(name)) continue;
      const allowed = [...route.names];
      const takes = allowed.length === 0 ? 'takes no query parameters' : `takes ${allowed.join(', ')}`;
      throw new ShardlineError(
        'invalid_request',
        `unknown query parameter ${JSON.stringify(name)}: ${method} ${route.path} ${takes}`,
        { parameter: name, allowed },
      );
    }
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

function declaredRoutes(app: OpenAPIHono<AppEnv>): RouteParameters[] {
  const routes: RouteParameters[] = [];
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const { method, path, request } = definition.route;
    const shape = (request?.query as { shape?: Record<string, unknown> } | undefined)?.shape;
    // A query schema that is not an object lists no names to check against: leave it to its validator.
    if (request?.query && !shape) continue;
    const source = path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    routes.push({
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${source}$`),
      names: new Set(Object.keys(shape ?? {})),
    });
  }
  return routes;
}
