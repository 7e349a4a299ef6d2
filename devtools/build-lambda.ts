import { build, type Plugin } from 'esbuild';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeConfigBundle } from './build-config';
import { copyDocsAssets } from './build-docs-assets';

const ROOT = resolve(import.meta.dirname, '..');

/** Code that must never reach the Lambda bundle: the embedded engine and the Node server. */
const NODE_ONLY = [
  /node_modules\/dynalite\//,
  /node_modules\/(leveldown|levelup|memdown)\//,
  /src\/runtime\/(node\/[^/]+|embedded-engine|data-engine)\.ts$/,
];

/**
 * Bundles src/runtime/lambda/main.ts into one ESM file, `outFile`, exporting `handler`.
 * Everything is bundled (the AWS SDK too: its version is the one tested, not the
 * runtime's). Some SDK dependencies are CommonJS and call `require`, which an ESM
 * file lacks: the banner defines it. Returns the input files, checked for Node-only code.
 */
export async function buildLambda(outFile: string, configBundleFile: string): Promise<string[]> {
  const configBundle: Plugin = {
    name: 'shardline-config-bundle',
    setup(builder) {
      builder.onResolve({ filter: /^shardline:config-bundle$/ }, () => ({ path: configBundleFile }));
    },
  };
  // zod's fifty locales, English kept (as wrangler.toml's [alias] does for the Worker).
  const englishOnly: Plugin = {
    name: 'zod-english-only',
    setup(builder) {
      builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
        /node_modules\/zod\//.test(importer) ? { path: resolve(ROOT, 'src/runtime/zod-locales.ts') } : undefined,
      );
    },
  };
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/runtime/lambda/main.ts'],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    minify: true,
    sourcemap: 'external',
    legalComments: 'external',
    metafile: true,
    logLevel: 'warning',
    plugins: [configBundle, englishOnly],
    banner: {
      js:
        "import { createRequire as __shardlineCreateRequire } from 'node:module'; " +
        'const require = __shardlineCreateRequire(import.meta.url);',
    },
  });
  const inputs = Object.keys(result.metafile.inputs);
  const leaked = inputs.filter((input) => NODE_ONLY.some((pattern) => pattern.test(input)));
  if (leaked.length > 0) throw new Error(`Node-only code reached the Lambda bundle: ${leaked.join(', ')}`);
  return inputs;
}

/**
 * The whole deployable folder: `outDir`/index.mjs (the handler), its source map,
 * docs-assets/ (read by the handler at run time) and config-bundle.json (what was
 * bundled, for the record). Zip `outDir` as it is.
 */
export async function buildLambdaFolder(outDir: string, configPath: string): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  const configFile = join(outDir, 'config-bundle.json');
  writeConfigBundle(configPath, configFile);
  await buildLambda(join(outDir, 'index.mjs'), configFile);
  copyDocsAssets(join(outDir, 'docs-assets'));
}
