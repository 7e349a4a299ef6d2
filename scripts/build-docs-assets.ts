import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DOCS_ASSET_FILES } from '../src/http/docs/assets';

/** Copies the docs page's files out of swagger-ui-dist into `outDir` (for the Lambda zip or Workers static assets). */
export function copyDocsAssets(outDir: string): void {
  const from = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  mkdirSync(outDir, { recursive: true });
  for (const file of DOCS_ASSET_FILES) copyFileSync(join(from, file), join(outDir, file));
}
