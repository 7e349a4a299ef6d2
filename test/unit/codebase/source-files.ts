import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository, and its src/: what the codebase tests read. */
export const ROOT = resolve(import.meta.dirname, '../../..');
export const SRC = join(ROOT, 'src');

/** Every TypeScript file below `dir`. */
export function* typeScriptFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* typeScriptFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}
