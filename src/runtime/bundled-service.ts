import { Hono, type Context, type ExecutionContext } from 'hono';
import { mountDocsAssets, type DocsAssets } from '../http/docs/assets';
import { bundledBoundaries, type ConfigBundle } from './config-bundle';
import type { RouterMetrics } from '../service/metrics/router-metrics';
import { buildService, prepareTables, type RuntimeMetrics } from './service';
import { clientKeys, credentialsOption } from './aws-keys';
import { readSettings, requireCursorSecret, type EnvMap } from './settings';

/** The API's description needs no table: it answers even while DynamoDB does not. */
const DOCS_ROUTES = ['/openapi.json', '/docs', '/docs/assets/:file'];

export interface BundledServiceOptions {
  readonly docsAssets: DocsAssets;
  /** Workers: the SDK finds no credentials by itself (no files, no process environment). */
  readonly requireCredentials: boolean;
  /** The runtime's metrics sink (EMF lines on Lambda, Analytics Engine on Workers). */
  readonly metrics?: (stats: RouterMetrics) => RuntimeMetrics;
}

export type BundledService = ReturnType<typeof createBundledService>;

/**
 * The service as the Worker and the Lambda function build it: settings from an environment
 * map, the config and boundaries from the build-time bundle. Throws on bad settings or config
 * (CURSOR_SECRET included), so a misconfigured deployment fails at its first request (Worker)
 * or at init (Lambda). Until the tables are ready, requests that need them get a 503 and the
 * next one tries again. No promise is shared between requests: a Worker may not await I/O
 * that another request started.
 */
export function createBundledService(env: EnvMap, bundle: ConfigBundle, options: BundledServiceOptions) {
  const settings = readSettings(env);
  requireCursorSecret(settings);
  const service = buildService(settings, bundle.config, {
    readBoundaries: bundledBoundaries(bundle),
    source: bundle.source,
    ...(options.metrics && { metrics: options.metrics }),
    ...credentialsOption(clientKeys(settings, options.requireCredentials)),
  });
  mountDocsAssets(service.app, options.docsAssets);

  let prepared = false;
  // What the app's gate awaits first; also for work outside a request.
  const ready = async () => {
    if (prepared) return;
    await prepareTables(service, settings.createTable, settings.tableStream);
    prepared = true;
  };
  const forward = async (c: Context) => {
    const context = executionContext(c);
    const response = await service.app.fetch(c.req.raw, c.env, context);
    // The fleet's load (docs/autopilot.md): a Worker writes the ended minute after answering;
    // Lambda has no waitUntil, so the invocation that finds a minute ended writes it first.
    if (service.load?.due()) {
      const flushing = service.load.flush();
      if (context) context.waitUntil(flushing);
      else await flushing;
    }
    return response;
  };
  const app = new Hono();
  // Hono's router tells the docs apart: their route answers, and the gate below never runs.
  for (const path of DOCS_ROUTES) app.all(path, forward);
  app.all('*', async (c) => {
    try {
      await ready();
    } catch (error) {
      // The cause (table names, settings) is for the operator's log, not for clients.
      console.error('shardline: tables not ready', error);
      const message = 'the table is not ready (the service log says why)';
      return c.json({ error: { code: 'unavailable', message } }, 503, { 'retry-after': '1' });
    }
    return forward(c);
  });
  return { service, settings, app, ready };
}

/** The Worker's ExecutionContext (waitUntil) when there is one; Lambda has none and Hono throws on access. */
function executionContext(c: Context): ExecutionContext | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
