import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { apiRoute } from '../api-route';
import type { Shardline } from '../../service/shardline';
import type { AppEnv } from '../env';
import { errorResponses, jsonContent, queryErrorResponse } from '../schemas';

const healthRoute = apiRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'getHealth',
  summary: 'Ready once every configured table answers (never needs a key)',
  description:
    'Pings every table the configured collections use: 200 once all answer, 503 while one does not. ' +
    'For load balancers and orchestrators: it never needs a key and is never rate-limited.',
  tags: ['health'],
  security: [],
  responses: {
    200: jsonContent(z.object({ ok: z.literal(true) }), 'ready'),
    ...queryErrorResponse,
    503: errorResponses[503],
    504: errorResponses[504],
  },
});

export function registerHealthRoute(app: OpenAPIHono<AppEnv>, shardline: Shardline): void {
  app.openapi(healthRoute, async (c) => {
    await shardline.ping(c.get('call'));
    return c.json({ ok: true as const }, 200);
  });
}
