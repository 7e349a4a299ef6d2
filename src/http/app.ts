import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { ShardlineError } from '../core/errors';
import type { AppDeps, AppEnv } from './env';
import { errorResponse, toShardlineError } from './errors';
import { registerDocsRoutes } from './docs/routes';
import { registerCollectionRoutes } from './routes/collections';
import { registerHealthRoute } from './routes/health';
import { registerItemRoutes } from './routes/items';
import { registerListingRoute } from './routes/listing';

/** A batch of 1000 items of any size DynamoDB accepts does not fit; 16 MB is BatchWriteItem's own cap per call. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The whole HTTP API as one Hono app over web-standard Request/Response. Runtimes
 * (Node, Workers, Lambda) only build `deps` and hand requests to `app.fetch`.
 */
export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const issue = result.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      return errorResponse(c, new ShardlineError('invalid_request', `${where}${issue?.message ?? 'invalid request'}`));
    },
  });

  app.use('*', async (c, next) => {
    const deadline = Date.now() + deps.requestTimeoutMs;
    const signal = AbortSignal.any([c.req.raw.signal, AbortSignal.timeout(deps.requestTimeoutMs)]);
    c.set('call', { signal, deadline });
    await next();
  });
  app.use('*', async (c, next) => {
    const method = c.req.method;
    if ((method === 'PUT' || method === 'POST') && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(c.req.header('content-type') ?? '')) {
      throw new ShardlineError('invalid_json', 'send the body as JSON with Content-Type: application/json');
    }
    await next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ShardlineError('payload_too_large', `the request body is over ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );

  registerHealthRoute(app, deps);
  registerCollectionRoutes(app, deps);
  registerListingRoute(app, deps);
  registerItemRoutes(app, deps);
  registerDocsRoutes(app);

  app.notFound((c) => errorResponse(c, new ShardlineError('route_not_found', `no route ${c.req.method} ${c.req.path}`)));
  app.onError((error, c) => {
    const mapped = toShardlineError(error);
    if (mapped.code === 'internal') console.error('shardline: unexpected error', error);
    return errorResponse(c, mapped);
  });
  return app;
}
