/**
 * Stands in for zod's index of locales in the Worker and Lambda bundles (wrangler.toml [alias],
 * devtools/build-lambda.ts): no bundler can shake the fifty locales off `z` (docs/performance.md). English stays.
 */
export { default as en } from 'zod/v4/locales/en.js';
