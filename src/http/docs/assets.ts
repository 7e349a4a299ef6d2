import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { apiRoute } from '../api-route';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';

/**
 * The docs page's files (`swagger-ui-dist`), served so /docs works offline. Each runtime says where it keeps them:
 * the renderer must stay out of the Worker bundle.
 */
export const DOCS_ASSET_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png'] as const;
export type DocsAssetFile = (typeof DOCS_ASSET_FILES)[number];

/** Where the docs page's assets are served; the page links them by relative URLs (it works under a path prefix). */
export const DOCS_ASSET_PATH = '/docs/assets';

const DOCS_ASSET_TYPES: Record<DocsAssetFile, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** An asset's bytes (or a ready Response, e.g. from a Workers ASSETS binding), or undefined where it is missing. */
export type DocsAssets = (file: DocsAssetFile, request: Request) => Promise<Uint8Array | Response | undefined>;

const assetRoute = apiRoute({
  method: 'get',
  path: `${DOCS_ASSET_PATH}/{file}`,
  operationId: 'getDocsAsset',
  summary: 'A file of the docs page (served locally, so /docs works offline)',
  tags: ['docs'],
  // Public like the page that loads it (PUBLIC_PATHS in app.ts): a page without its files renders nothing.
  security: [],
  request: {
    params: z.object({ file: z.enum(DOCS_ASSET_FILES).openapi({ param: { name: 'file', in: 'path' } }) }),
  },
  responses: {
    200: {
      content: {
        'text/javascript': { schema: z.string() },
        'text/css': { schema: z.string() },
        'image/png': { schema: z.string().openapi({ format: 'binary' }) },
      },
      description: 'the file',
    },
    404: errorResponses[404],
  },
});

/** Serves the docs page's assets. Call it before the app's first request (Hono freezes its router on first use). */
export function mountDocsAssets(app: OpenAPIHono<AppEnv>, source: DocsAssets): void {
  app.openapi(
    assetRoute,
    async (c) => {
      const { file } = c.req.valid('param');
      const found = await source(file, c.req.raw);
      if (found === undefined) throw new ShardlineError('route_not_found', `no docs asset ${file} in this runtime`);
      if (found instanceof Response) return found as never;
      // The files change only when swagger-ui-dist is upgraded and the service redeployed.
      return c.body(found as Uint8Array<ArrayBuffer>, 200, {
        'content-type': DOCS_ASSET_TYPES[file],
        'cache-control': 'public, max-age=3600',
      }) as never;
    },
    // An unknown file name is a missing page, not bad input.
    (result) => {
      if (!result.success) throw new ShardlineError('route_not_found', 'no such docs asset');
      return undefined;
    },
  );
}
