import { resolve } from 'node:path';
import { copyDocsAssets } from '../devtools/build-docs-assets';
import { buildConfigPath, writeConfigBundle } from '../devtools/build-config';
import { buildClient } from '../devtools/build-client';
import { buildLambdaFolder } from '../devtools/build-lambda';
import { invalidRequest } from '../src/core/errors';
import { parseCommandLine } from '../src/cli/command-line';

/**
 * `npm run build [-- worker|lambda]` (both by default):
 * - worker: dist/config/bundle.json — the config (SHARDLINE_CONFIG or
 *   config/shardline.config.json) with every boundaries file it names, checked, which
 *   wrangler.toml aliases as `shardline:config-bundle`; and dist/worker-assets/docs/assets/*,
 *   the docs page's files as Workers static assets. wrangler runs `npm run build -- worker`
 *   before every dev/deploy bundle.
 * - lambda: dist/lambda/index.mjs (exports `handler`), dist/lambda/docs-assets/* and
 *   dist/lambda/config-bundle.json — zip the folder as it is.
 * - client: dist/package/client/index.js and its declarations, what `shardline/client`
 *   exports (built before `npm pack`; not part of the default).
 */
const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(ROOT, 'dist');

const USAGE = `Usage: npm run build [-- worker|lambda …]

  worker   dist/config/bundle.json (the config and its boundaries files, checked) and
           dist/worker-assets/docs/assets/* for wrangler
  lambda   dist/lambda/: index.mjs (exports handler), docs-assets/, config-bundle.json
  client   dist/package/: shardline/client (index.js and its .d.ts files)
  (worker and lambda when none is named; the config is SHARDLINE_CONFIG or config/shardline.config.json)
  --help`;

const TARGETS = ['worker', 'lambda', 'client'];

const targets = parseCommandLine('build', USAGE, { allowPositionals: true }, ({ positionals }) => {
  const unknown = positionals.filter((target) => !TARGETS.includes(target));
  if (unknown.length > 0) throw invalidRequest(`unknown build target ${unknown.join(', ')} (${TARGETS.join(', ')})`);
  return positionals;
});

async function main(): Promise<void> {
  const wants = (target: string) => (targets.length === 0 && target !== 'client') || targets.includes(target);

  const configPath = buildConfigPath();
  if (wants('worker')) {
    const bundle = writeConfigBundle(configPath, resolve(DIST, 'config/bundle.json'));
    const files = Object.keys(bundle.boundaries);
    console.log(
      `worker: config ${bundle.source}${files.length ? ` + ${files.join(', ')}` : ''} -> dist/config/bundle.json`,
    );
    // Copied over, not removed first: a running `wrangler dev` keeps serving them.
    copyDocsAssets(resolve(DIST, 'worker-assets/docs/assets'));
    console.log('worker: docs assets -> dist/worker-assets/docs/assets/');
  }
  if (wants('lambda')) {
    await buildLambdaFolder(resolve(DIST, 'lambda'), configPath);
    console.log('lambda: dist/lambda/index.mjs (+ docs-assets/, config-bundle.json) — zip the folder as it is');
  }
  if (wants('client')) {
    const bytes = await buildClient(resolve(DIST, 'package'));
    console.log(`client: dist/package/client/index.js (${(bytes / 1024).toFixed(1)} KiB, no imports) and .d.ts files`);
  }
}

main().catch((error: unknown) => {
  console.error(`build failed: ${(error as Error).message}`);
  process.exit(1);
});
