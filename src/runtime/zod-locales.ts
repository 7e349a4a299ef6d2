/**
 * Stands in for zod's index of locales in the Worker and Lambda bundles (wrangler.toml
 * [alias], devtools/build-lambda.ts). zod re-exports some fifty locales through its `z`
 * namespace, which no bundler can shake (@hono/zod-openapi extends `z` in place): messages in
 * languages this service never answers in (their size: docs/performance.md). English, zod's default, stays.
 */
export { default as en } from 'zod/v4/locales/en.js';
