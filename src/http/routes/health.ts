import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../env';
import { errorResponses } from '../schemas';

const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Ready once every configured table answers (never needs a key)',
  security: [],
  responses: {
    200: { content: { 'application/json': { schema: z.object({ ok: z.literal(true) }) } }, description: 'ready' },
    503: errorResponses[503],
  },
});

export function registerHealthRoute(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const tables = [...new Set(deps.collections.map((collection) => collection.table))];
  app.openapi(healthRoute, async (c) => {
    await Promise.all(tables.map((table) => deps.store.ping(table, c.get('call'))));
    return c.json({ ok: true as const }, 200);
  });
}
