import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocsAssetFile, DocsAssets } from './assets';

/** Docs assets read from a folder, each once and kept: a missing file answers undefined (404), never throws. */
export function directoryDocsAssets(directory: URL | (() => string)): DocsAssets {
  const cache = new Map<DocsAssetFile, Promise<Uint8Array | undefined>>();
  const folder = () => (typeof directory === 'function' ? directory() : fileURLToPath(directory));
  return (file) => {
    let bytes = cache.get(file);
    if (!bytes) {
      bytes = readFile(join(folder(), file)).then(
        (buffer) => new Uint8Array(buffer),
        () => {
          cache.delete(file); // maybe installed later; do not remember the miss
          return undefined;
        },
      );
      cache.set(file, bytes);
    }
    return bytes;
  };
}

/** The assets straight from the installed `swagger-ui-dist` package (the Node server). */
export function packageDocsAssets(): DocsAssets {
  // Resolved on first use, so that merely importing this costs nothing.
  return directoryDocsAssets(() => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')));
}
