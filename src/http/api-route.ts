// biome-ignore lint/style/noRestrictedImports: the one place that wraps createRoute
import { createRoute } from '@hono/zod-openapi';
import { declaredQueryOnly } from './middleware/known-query';

/**
 * `createRoute` for every route of the API (biome.json refuses the bare one elsewhere): the route's own
 * query check (middleware/known-query.ts) goes first among its middleware, so Hono's router, which picks
 * the route, also picks the check, and a request never gets to the route's body guards or validators with
 * a parameter the route does not take. The middleware is not part of the OpenAPI document.
 */
export const apiRoute: typeof createRoute = (config) =>
  createRoute({
    ...config,
    middleware: [declaredQueryOnly(config), ...[config.middleware ?? []].flat()],
  } as typeof config);
