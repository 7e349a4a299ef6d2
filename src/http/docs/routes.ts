import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { version } from '../../../package.json';
import type { AppEnv } from '../env';
import { DOCS_PAGE_CSP, docsPageHtml } from './page';

/** The document's header; the paths come from the routes themselves. */
export const OPENAPI_INFO = {
  openapi: '3.0.3',
  info: {
    title: 'shardline',
    version,
    description:
      'An ordered-key shard router for DynamoDB: sharded writes, ' +
      'globally sorted listings in code point (UTF-8 byte) order. ' +
      'Errors are `{"error": {"code", "message", "requestId"}}`; every answer carries `x-request-id` (yours echoed, ' +
      'or one made). When the service runs with API_KEYS, every route but ' +
      '/healthz, /openapi.json and /docs needs `Authorization: Bearer <key>` (read or write scope).',
  },
} as const;

const documentRoute = createRoute({
  method: 'get',
  path: '/openapi.json',
  summary: 'This API described as an OpenAPI 3 document',
  tags: ['docs'],
  security: [],
  responses: {
    200: {
      content: { 'application/json': { schema: z.looseObject({ openapi: z.string() }).openapi('OpenAPIDocument') } },
      description: 'the document',
    },
  },
});

const pageRoute = createRoute({
  method: 'get',
  path: '/docs',
  summary: 'An HTML page rendering this document (works offline)',
  tags: ['docs'],
  security: [],
  responses: {
    200: { content: { 'text/html': { schema: z.string() } }, description: 'the page' },
  },
});

/**
 * GET /openapi.json (built from every route registered with `app.openapi`, at
 * request time, so routes mounted after this call are included) and GET /docs.
 */
export function registerDocsRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'an API key from API_KEYS (only when the service is configured with keys)',
  });
  let document: unknown;
  app.openapi(documentRoute, (c) => {
    // Routes are fixed once the app serves; build the document once.
    document ??= app.getOpenAPIDocument({ ...OPENAPI_INFO, security: [{ bearer: [] }] });
    return c.json(document as { openapi: string }, 200);
  });
  app.openapi(pageRoute, (c) =>
    c.html(docsPageHtml(), 200, { 'content-security-policy': DOCS_PAGE_CSP, 'cache-control': 'no-cache' }),
  );
}
