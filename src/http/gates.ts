import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ExecutionContext, MiddlewareHandler } from 'hono';
import { ShardlineError } from '../core/errors';
import { DOCS_ASSET_PATH } from './docs/assets';
import type { AppEnv } from './env';
import { gateRefusal } from './errors';
import { admission, markListed, type AdmissionDeps } from './middleware/admission';
import { METRICS_PATH } from './routes/observability';

/** The part of the fleet load recorder (src/service/metrics/load-recorder.ts) a runtime drives. */
export interface LoadFlush {
  /** Whether a minute has ended since the last flush. */
  due(): boolean;
  flush(): Promise<unknown>;
}

/** What a runtime puts before the API, each where its platform needs it; none for tests and tools. */
export interface Gates {
  /** Node: shed work past an adaptive limit (middleware/admission.ts). */
  readonly admission?: AdmissionDeps;
  /** Worker and Lambda: their tables, prepared on the first request that needs them (`tablesReady` below). */
  readonly tablesReady?: () => Promise<void>;
  /** Worker and Lambda: the fleet's load written after answers (`flushLoadAfterAnswers` below). */
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

/**
 * The Worker's and the Lambda's gate: their tables are prepared on the first request that needs them. Until `ready`
 * resolves, such a request gets a 503 and the next one tries again; routes marked `tableless` answer meanwhile.
 * `ready` shares no promise between requests: a Worker may not await I/O that another request started.
 */
function tablesReady(ready: () => Promise<void>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('tableless')) return next();
    try {
      await ready();
    } catch (error) {
      // The cause (table names, settings) is for the operator's log, not for clients.
      console.error('shardline: tables not ready', error);
      return gateRefusal(new ShardlineError('unavailable', 'the table is not ready (the service log says why)'));
    }
    await next();
  };
}

/**
 * The fleet's load where no timer runs between requests: the ended minute is written after an answer, by a Worker
 * in waitUntil, by Lambda (no waitUntil) before its answer.
 */
function flushLoadAfterAnswers(load: LoadFlush): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (!load.due()) return;
    const flushing = load.flush();
    const context = executionContext(c);
    if (context) context.waitUntil(flushing);
    else await flushing;
  };
}

/** The Worker's ExecutionContext (waitUntil) when there is one; Lambda has none and Hono throws on access. */
function executionContext(c: Parameters<MiddlewareHandler<AppEnv>>[0]): ExecutionContext | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
