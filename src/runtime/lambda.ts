import { handle } from 'hono/aws-lambda';
import bundle from 'shardline:config-bundle';
import { directoryDocsAssets } from '../http/docs/file-assets';
import { createBundledService } from './bundled-service';

/**
 * AWS Lambda entry (`npm run build` bundles it to dist/lambda/index.mjs): the
 * same service as `npm start`, built once per execution environment at init,
 * settings from the function's environment, config bundled at build time, docs
 * assets copied beside the bundle. One handler for API Gateway REST (v1), HTTP
 * API (v2) and Function URL events.
 */
const { app } = createBundledService(process.env, bundle, {
  docsAssets: directoryDocsAssets(new URL('./docs-assets/', import.meta.url)),
  requireCredentials: false,
});

export const handler = handle(app);
