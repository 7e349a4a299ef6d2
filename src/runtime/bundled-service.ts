import { mountDocsAssets, type DocsAssets } from '../http/docs/assets';
import { bundledBoundaries, type ConfigBundle } from './config-bundle';
import type { RouterMetrics } from '../service/metrics/router-metrics';
import { buildService, type RuntimeMetrics } from './service';
import { clientKeys } from './aws-keys';
import { readSettings, requireCursorSecret, type EnvMap } from './settings';

export interface BundledServiceOptions {
  readonly docsAssets: DocsAssets;
  /** Workers: the SDK finds no credentials by itself (no files, no process environment). */
  readonly requireCredentials: boolean;
  /** The runtime's metrics sink (EMF lines on Lambda, Analytics Engine on Workers). */
  readonly metrics?: (stats: RouterMetrics) => RuntimeMetrics;
}

export type BundledService = ReturnType<typeof createBundledService>;

/**
 * The service as the Worker and the Lambda function build it: settings from an environment map, the config from
 * the build-time bundle. Throws on bad settings or config (CURSOR_SECRET included), so a misconfigured deployment
 * fails at its first request (Worker) or at init (Lambda).
 */
export function createBundledService(env: EnvMap, bundle: ConfigBundle, options: BundledServiceOptions) {
  const settings = readSettings(env);
  requireCursorSecret(settings);
  const credentials = clientKeys(settings, options.requireCredentials);
  const service = buildService(settings, bundle.config, {
    readBoundaries: bundledBoundaries(bundle),
    source: bundle.source,
    bundled: true,
    ...(options.metrics && { metrics: options.metrics }),
    ...(credentials && { client: { credentials } }),
  });
  mountDocsAssets(service.app, options.docsAssets);
  return { service, settings, app: service.app };
}
