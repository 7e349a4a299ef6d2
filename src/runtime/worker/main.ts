import type { ExecutionContext } from 'hono';
import bundle from 'shardline:config-bundle';
import { DOCS_ASSET_PATH, type DocsAssets } from '../../http/docs/assets';
import { ANALYTICS_BINDING, analyticsEngineRecorder, type AnalyticsEngineDataset } from './analytics-engine';
import { createBundledService, type BundledService } from '../bundled-service';
import { scheduledAutopilot } from '../scheduled-autopilot';
import type { RuntimeMetrics } from '../service';
import type { EnvMap } from '../settings';

/** The Worker's bindings: `vars` and secrets (strings) and the static assets (wrangler.toml). */
export interface WorkerEnv {
  readonly ASSETS?: { fetch(request: Request): Promise<Response> };
  readonly [name: string]: unknown;
}

/** Built once per isolate, on its first request: bindings are only known then. */
let runtime: BundledService | undefined;

/** A Cron Trigger's invocation may last 15 minutes; the next trigger resumes a reshard stopped before. */
const SCHEDULED_BUDGET_MS = 10 * 60_000;

function runtimeOf(env: WorkerEnv): BundledService {
  runtime ??= createBundledService(stringBindings(env), bundle, {
    docsAssets: assetsBinding(env),
    requireCredentials: true,
    metrics: () => analyticsMetrics(env),
  });
  return runtime;
}

/** Cloudflare Worker entry. The docs page's assets are served before it runs (wrangler.toml [assets]). */
export default {
  async fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> {
    let built: BundledService;
    try {
      built = runtimeOf(env);
    } catch (error) {
      console.error('shardline: cannot start', error);
      const message = `shardline is misconfigured: ${(error as Error).message}`;
      return Response.json({ error: { code: 'internal', message } }, { status: 500 });
    }
    return built.app.fetch(request, env, ctx);
  },

  /** A Cron Trigger (wrangler.toml [triggers]): one autopilot step per opted-in collection (docs/autopilot.md). */
  async scheduled(_controller: unknown, env: WorkerEnv): Promise<void> {
    const { failed } = await scheduledAutopilot(runtimeOf(env), SCHEDULED_BUDGET_MS);
    // A failed step shows as a failed invocation in the Worker's Cron Events; the next trigger tries again.
    if (failed.length > 0) throw new Error(`autopilot step failed for ${failed.join(', ')} (see the log lines)`);
  },
};

/** Workers Analytics Engine, when a dataset is bound as METRICS (see wrangler.toml). */
function analyticsMetrics(env: WorkerEnv): RuntimeMetrics {
  const dataset = env[ANALYTICS_BINDING] as AnalyticsEngineDataset | undefined;
  return typeof dataset?.writeDataPoint === 'function' ? { recorder: analyticsEngineRecorder(dataset) } : {};
}

function stringBindings(env: WorkerEnv): EnvMap {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function assetsBinding(env: WorkerEnv): DocsAssets {
  return async (file, request) => {
    if (!env.ASSETS) return undefined;
    const response = await env.ASSETS.fetch(new Request(new URL(`${DOCS_ASSET_PATH}/${file}`, request.url)));
    return response.ok ? response : undefined;
  };
}
