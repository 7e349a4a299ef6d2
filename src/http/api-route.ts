// biome-ignore lint/style/noRestrictedImports: the one place that wraps createRoute
import { createRoute } from '@hono/zod-openapi';
import { declaredQueryOnly } from './middleware/known-query';

/**
 * `createRoute` for every route (biome.json refuses the bare one): the route's query check goes first, so a request
 * never reaches its body guards or validators with a parameter the route does not take.
 */
export const apiRoute: typeof createRoute = (config) =>
  createRoute({
    ...config,
    middleware: [declaredQueryOnly(config), ...[config.middleware ?? []].flat()],
  } as typeof config);
