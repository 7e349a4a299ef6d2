import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { apiRoute } from '../api-route';
import { version } from '../../../package.json';
import type { AppEnv } from '../env';
import { jsonContent, queryErrorResponse } from '../schemas';
import { withSharedResponses } from './shared-responses';
import { DOCS_PAGE_CSP, docsPageHtml } from './page';

const OPENAPI_INFO: Parameters<OpenAPIHono<AppEnv>['getOpenAPI31Document']>[0] = {
  openapi: '3.1.0',
  info: {
    title: 'shardline',
    version,
    description:
      'An ordered-key shard router for DynamoDB: sharded writes, ' +
      'globally sorted listings in code point (UTF-8 byte) order. ' +
      'Errors are `{"error": {"code", "message", "requestId"}}`; every answer carries `x-request-id` (yours echoed, ' +
      'or one made). When the service runs with API_KEYS, every route but /, /healthz, /openapi.json, ' +
      '/docs and the files it loads (/docs/assets/…) needs `Authorization: Bearer <key>` (read or write scope). ' +
      'A query parameter a route does not list here is a 400 naming it; a method a path does not take, a 405 ' +
      'with `Allow`; a URL over 16 KiB, a 414; headers over 32 KiB, a 431.',
  },
  // Relative: the service answers wherever it is reached (a host, a proxy, a Lambda URL).
  servers: [{ url: '/', description: 'the service that served this document' }],
  tags: [
    { name: 'listing', description: 'Globally sorted listings across the shards, page by page' },
    { name: 'items', description: 'Writes, reads, patches and deletes of items, one at a time or in batches' },
    { name: 'collections', description: 'The configured collections, their shard maps, and where a key goes' },
    { name: 'observability', description: 'Per-shard load, hot keys, the heat page and Prometheus metrics' },
    { name: 'health', description: 'Readiness, for load balancers and orchestrators' },
    { name: 'docs', description: 'This document, the page rendering it, and `/` pointing to both' },
  ],
};

const documentRoute = apiRoute({
  method: 'get',
  path: '/openapi.json',
  operationId: 'getOpenApiDocument',
  summary: 'This API described as an OpenAPI 3.1 document',
  description: 'Built from the routes themselves, so it lists exactly the routes this service serves.',
  tags: ['docs'],
  security: [],
  responses: {
    200: jsonContent(z.looseObject({ openapi: z.string() }).openapi('OpenAPIDocument'), 'the document'),
    ...queryErrorResponse,
  },
});

const pageRoute = apiRoute({
  method: 'get',
  path: '/docs',
  operationId: 'getDocsPage',
  summary: 'An HTML page rendering this document (works offline)',
  description: 'Swagger UI over /openapi.json, served with its files by the service itself: it loads nothing else.',
  tags: ['docs'],
  security: [],
  responses: {
    200: { content: { 'text/html': { schema: z.string() } }, description: 'the page' },
    ...queryErrorResponse,
  },
});

const Links = z
  .object({ name: z.string(), docs: z.string(), openapi: z.string(), collections: z.string(), health: z.string() })
  .openapi('Links');

const rootRoute = apiRoute({
  method: 'get',
  path: '/',
  operationId: 'getLinks',
  summary: 'Where to start: a browser is sent to /docs, anything else gets the links as JSON',
  description: 'A request accepting text/html is redirected to /docs; any other gets the links below, also in `Link`.',
  tags: ['docs'],
  security: [],
  responses: {
    200: jsonContent(Links, 'the links'),
    302: { description: 'to /docs, for a client that accepts HTML' },
    ...queryErrorResponse,
  },
});

/** GET /, /docs and /openapi.json, built at request time so that routes mounted after this call are included. */
export function registerDocsRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'an API key from API_KEYS (only when the service is configured with keys)',
  });
  let document: unknown;
  app.openapi(documentRoute, (c) => {
    // Routes are fixed once the app serves; build the document once.
    document ??= withSharedResponses(app.getOpenAPI31Document({ ...OPENAPI_INFO, security: [{ bearer: [] }] }));
    return c.json(document as { openapi: string }, 200);
  });
  app.openapi(rootRoute, (c) => {
    if (/\btext\/html\b/.test(c.req.header('accept') ?? '')) return c.redirect('/docs', 302);
    const links = { docs: '/docs', openapi: '/openapi.json', collections: '/collections', health: '/healthz' };
    return c.json({ name: 'shardline', ...links }, 200, {
      link: '</docs>; rel="service-doc", </openapi.json>; rel="service-desc"',
    });
  });
  app.openapi(pageRoute, (c) =>
    c.html(docsPageHtml(), 200, { 'content-security-policy': DOCS_PAGE_CSP, 'cache-control': 'no-cache' }),
  );
}
