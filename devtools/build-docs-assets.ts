import { copyFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DOCS_ASSET_FILES } from '../src/http/docs/assets';

/**
 * Copies the docs page's files out of swagger-ui-dist into `outDir` (for the Lambda
 * zip or Workers static assets). A file already there with the same size is left
 * alone and a new one is renamed into place, so a running `wrangler dev` never
 * serves half a file.
 */
export function copyDocsAssets(outDir: string): void {
  const from = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  mkdirSync(outDir, { recursive: true });
  for (const file of DOCS_ASSET_FILES) {
    const source = join(from, file);
    const target = join(outDir, file);
    if (statSync(target, { throwIfNoEntry: false })?.size === statSync(source).size) continue;
    const partial = `${target}.${process.pid}.tmp`;
    copyFileSync(source, partial);
    renameSync(partial, target);
  }
}
