/**
 * Resolved by the Worker and Lambda builds (wrangler.toml [alias], devtools/build-lambda.ts)
 * to dist/config/bundle.json.
 */
declare module 'shardline:config-bundle' {
  const bundle: import('./config-bundle').ConfigBundle;
  export default bundle;
}
