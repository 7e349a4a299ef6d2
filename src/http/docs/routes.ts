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
      '/healthz, /openapi.json and /docs needs `Authorization: Bearer <key>` (read or write scope). ' +
      'A query parameter a route does not list here is a 400 naming it; a method a path does not take, a 405 ' +
      'with `Allow`; a URL over 16 KiB, a 414; headers over 32 KiB, a 431.',
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

const rootRoute = createRoute({
  method: 'get',
  path: '/',
  summary: 'Where to start: a browser is sent to /docs, anything else gets the links as JSON',
  tags: ['docs'],
  security: [],
  responses: {
    200: {
      content: {
        'application/json': {
          schema: z
            .object({
              name: z.string(),
              docs: z.string(),
              openapi: z.string(),
              collections: z.string(),
              health: z.string(),
            })
            .openapi('Links'),
        },
      },
      description: 'the links',
    },
    302: { description: 'to /docs, for a client that accepts HTML' },
  },
});

/**
 * GET / (points to the docs), GET /openapi.json (built from every route registered with `app.openapi`, at
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
  app.openapi(rootRoute, (c) => {
    if (/\btext\/html\b/.test(c.req.header('accept') ?? '')) return c.redirect('/docs', 302);
    const links = {
      name: 'shardline',
      docs: '/docs',
      openapi: '/openapi.json',
      collections: '/collections',
      health: '/healthz',
    };
    return c.json(links, 200, { link: '</docs>; rel="service-doc", </openapi.json>; rel="service-desc"' });
  });
  app.openapi(pageRoute, (c) =>
    c.html(docsPageHtml(), 200, { 'content-security-policy': DOCS_PAGE_CSP, 'cache-control': 'no-cache' }),
  );
}
