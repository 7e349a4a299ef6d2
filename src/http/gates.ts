import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { DOCS_ASSET_PATH } from './docs/assets';
import type { AppEnv } from './env';
import { admission, markListed, type AdmissionDeps } from './middleware/admission';
import { flushLoadAfterAnswers, type LoadFlush } from './middleware/load-flush';
import { tablesReady } from './middleware/tables-ready';
import { METRICS_PATH } from './routes/observability';

/** What a runtime puts before the API, each where its platform needs it; none for tests and tools. */
export interface Gates {
  /** Node: shed work past an adaptive limit (middleware/admission.ts). */
  readonly admission?: AdmissionDeps;
  /** Worker and Lambda: their tables, prepared on the first request that needs them (middleware/tables-ready.ts). */
  readonly tablesReady?: () => Promise<void>;
  /** Worker and Lambda: the fleet's load written after answers (middleware/load-flush.ts). */
  readonly flushLoad?: LoadFlush;
}

/** Probes answer even when work is shed: load balancers and scrapers must see a busy server, not a dead one. */
const PROBE_PATHS = ['/healthz', METRICS_PATH];
/** The listing a GET weighs by its shards. */
const LISTING_PATH = '/collections/:collection/items';
/** The API's description needs no table: it answers even while DynamoDB does not. */
const TABLELESS_PATHS = ['/openapi.json', '/docs', `${DOCS_ASSET_PATH}/:file`];

/** Sets a request variable on the paths it is attached to, told by Hono's router, for the middleware after it. */
export const mark =
  <K extends 'access' | 'unlimited' | 'probe' | 'tableless'>(
    name: K,
    value: AppEnv['Variables'][K],
  ): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    c.set(name, value);
    await next();
  };

/**
 * The gates, before any other middleware: a shed request or one refused for want of a table costs nothing more (no
 * request id, no log line), and the load is written after the whole answer. Paths are told by route-level marks.
 */
export function registerGates(app: OpenAPIHono<AppEnv>, gates: Gates): void {
  if (gates.admission) {
    for (const path of PROBE_PATHS) app.use(path, mark('probe', true));
    app.use(LISTING_PATH, markListed);
    app.use('*', admission(gates.admission));
  }
  if (gates.tablesReady) {
    for (const path of TABLELESS_PATHS) app.use(path, mark('tableless', true));
    app.use('*', tablesReady(gates.tablesReady));
  }
  if (gates.flushLoad) app.use('*', flushLoadAfterAnswers(gates.flushLoad));
}
