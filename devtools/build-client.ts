import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * `shardline/client` as the package exports it: dist/client/index.js, one ES module with
 * no import at all (fetch is the platform's), and its declarations (dist/client/*.d.ts
 * and the few core ones they name), from tsconfig.client.json.
 */
export async function buildClient(out: string): Promise<number> {
  rmSync(out, { recursive: true, force: true });
  const result = await build({
    entryPoints: [resolve(ROOT, 'src/client/index.ts')],
    outfile: resolve(out, 'client/index.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    metafile: true,
    legalComments: 'none',
  });
  const tsc = resolve(ROOT, 'node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', resolve(ROOT, 'tsconfig.client.json'), '--outDir', out], {
    stdio: 'inherit',
  });
  return Object.values(result.metafile.outputs)[0]!.bytes;
}
