/** Resolved by the Worker and Lambda builds (wrangler.toml [alias], devtools/build-lambda.ts) to its JSON. */
declare module 'shardline:config-bundle' {
  const bundle: import('./config-bundle').ConfigBundle;
  export default bundle;
}
