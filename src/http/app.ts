import { OpenAPIHono } from '@hono/zod-openapi';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { invalidRequest, ShardlineError } from '../core/errors';
import type { AppDeps, AppEnv } from './env';
import { describeForLog, errorResponse, methodNotAllowedResponse, toShardlineError } from './errors';
import { DOCS_ASSET_FILES, DOCS_ASSET_PATH } from './docs/assets';
import { registerDocsRoutes } from './docs/routes';
import { mark, registerGates } from './gates';
import { bearerAuth } from './middleware/auth';
import { corsFor } from './middleware/cors';
import { observeRequests } from './middleware/observe';
import { wellFormedQuery } from './middleware/known-query';
import { requestDeadline } from './middleware/deadline';
import { DEFAULT_AUTH_FAILURES_PER_SECOND, rateLimit } from './middleware/rate-limit';
import { requestSizeLimits } from './middleware/request-size';
import { registerCollectionRoutes } from './routes/collections';
import { registerGroupRoutes } from './routes/groups';
import { registerHealthRoute } from './routes/health';
import { registerItemRoutes } from './routes/items';
import { registerListingRoute } from './routes/listing';
import { METRICS_PATH, registerObservabilityRoutes } from './routes/observability';
import { registerLoadRoute } from './routes/load';

/** Paths anyone may call without a key. */
export const PUBLIC_PATHS = [
  '/',
  '/healthz',
  '/openapi.json',
  '/docs',
  ...DOCS_ASSET_FILES.map((file) => `${DOCS_ASSET_PATH}/${file}`),
];

/** The whole HTTP API over web-standard Request/Response; each runtime builds `deps` (buildService). */
export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const issue = result.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      return errorResponse(c, invalidRequest(`${where}${issue?.message ?? 'invalid request'}`));
    },
  });

  if (deps.gates) registerGates(app, deps.gates);
  // First of the API's own, so that every answer (a 401, a 405, a 500) names the request it answers.
  app.use('*', requestId());
  // Next, so that every answer is timed, counted under its route and logged with its id.
  if (deps.observability) app.use('*', observeRequests(deps.observability));
  // A known path asked with another method: 405 with Allow, from the routes themselves (mounted ones too).
  app.use('*', methodNotAllowed({ app, onMethodNotAllowed: methodNotAllowedResponse }));
  app.use('*', requestDeadline(deps.requestTimeoutMs));
  const security = deps.security ?? {};
  // No Cross-Origin-Opener-Policy: nothing here is worth guarding, and browsers warn of it on plain-HTTP pages.
  app.use('*', secureHeaders({ crossOriginOpenerPolicy: false }));
  app.use('*', requestSizeLimits());
  const cors = corsFor(security.corsOrigins ?? []);
  if (cors) app.use('*', cors);
  // Which paths need no key, and the one the metrics key may read, told by Hono's router.
  for (const path of PUBLIC_PATHS) app.use(path, mark('access', 'public'));
  app.use(METRICS_PATH, mark('access', 'metrics'));
  const failuresPerSecond = security.authFailuresPerSecond ?? DEFAULT_AUTH_FAILURES_PER_SECOND;
  app.use('*', bearerAuth(security.apiKeys ?? [], failuresPerSecond));
  if (security.rateLimitPerSecond !== undefined) {
    // Load balancers probe the health check: never limited.
    app.use('/healthz', mark('unlimited', true));
    app.use('*', rateLimit(security.rateLimitPerSecond));
  }
  // After auth, like each route's own query check (api-route.ts): a caller without a key learns nothing of them.
  app.use('*', wellFormedQuery());

  const { shardline } = deps;
  registerHealthRoute(app, shardline);
  registerCollectionRoutes(app, shardline);
  registerListingRoute(app, shardline);
  registerGroupRoutes(app, shardline);
  registerItemRoutes(app, deps);
  registerObservabilityRoutes(app, deps);
  if (shardline.recordsLoad) registerLoadRoute(app, shardline);
  registerDocsRoutes(app);

  app.notFound((c) =>
    errorResponse(c, new ShardlineError('route_not_found', `no route ${c.req.method} ${c.req.path}`)),
  );
  app.onError((error, c) => {
    // A client that went away caused whatever failed after (the abort it set off).
    const mapped = c.req.raw.signal.aborted
      ? new ShardlineError('client_closed', 'the client went away before the answer')
      : toShardlineError(error);
    if (mapped.code === 'internal') {
      console.error(
        `shardline: unexpected error on ${c.req.method} ${c.req.path} (request ${c.get('requestId')}): ` +
          describeForLog(error),
      );
    }
    return errorResponse(c, mapped);
  });
  return app;
}
