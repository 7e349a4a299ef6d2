import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, SRC, typeScriptFiles } from './source-files';

/**
 * The layers of src/ (docs/architecture.md), lowest first: a folder may import its own
 * layer and those below it, never one above. Folders of one rank sit beside each other.
 * A new folder must be placed here, or the test fails.
 */
const LAYERS: Readonly<Record<string, number>> = {
  // Pure functions and data: no HTTP, no AWS SDK, no I/O.
  core: 0,
  // Pure too, over core: offline boundary cutting, the capacity plan, the config file's
  // schema, the load model (records, meters, the fleet's merge) and the published client,
  // whose bundle must carry nothing but core.
  boundaries: 1,
  planning: 1,
  config: 1,
  load: 1,
  client: 1,
  // The one door to DynamoDB.
  store: 2,
  // What serving does over the store: listings, writes, shard maps, metrics.
  service: 3,
  // Long runs over the service: the online reshard and the change follower.
  reshard: 4,
  follow: 4,
  // What drives them: the HTTP app, and the autopilot that decides reshards from load.
  http: 5,
  autopilot: 5,
  // Platforms and commands: they wire everything below and nothing imports them.
  runtime: 6,
  cli: 6,
};

/** The packages core may import, each without I/O (the doc names why each is there). */
const CORE_PACKAGES = ['node:buffer', 'node:crypto', 'zod'];

interface Import {
  /** The importing file, relative to the repository. */
  readonly file: string;
  readonly line: number;
  /** The specifier as written. */
  readonly specifier: string;
}

/**
 * Every import of a file as TypeScript reads it — `import … from`, `import type`,
 * `export … from`, bare `import '…'` and `import('…')`, also in type positions —
 * so that comments and strings that merely look like imports do not count.
 */
function importsOf(path: string): Import[] {
  const text = readFileSync(path, 'utf8');
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const file = relative(ROOT, path);
  return importedFiles.map(({ fileName, pos }) => ({
    file,
    line: text.slice(0, pos).split('\n').length,
    specifier: fileName,
  }));
}

/** The src/ folder a file lies in ('' for a file at src/'s top), or undefined outside src/. */
function folderOf(path: string): string | undefined {
  const inSrc = relative(SRC, path);
  if (inSrc.startsWith('..')) return undefined;
  const parts = inSrc.split(sep);
  return parts.length > 1 ? parts[0] : '';
}

const FILES = [...typeScriptFiles(SRC)];

describe('src/ imports point down the layers', () => {
  it('every folder of src/ has a layer', () => {
    const folders = new Set(FILES.map((path) => folderOf(path)));
    expect([...folders].filter((folder) => folder === undefined || !(folder in LAYERS))).toEqual([]);
  });

  it('no file imports a layer above its own', () => {
    expect(FILES.length).toBeGreaterThan(100);
    const upward: string[] = [];
    for (const path of FILES) {
      const from = folderOf(path)!;
      for (const { file, line, specifier } of importsOf(path)) {
        // Packages are not layers; core's are checked below.
        if (!specifier.startsWith('.')) continue;
        const to = folderOf(resolve(dirname(path), specifier));
        // package.json (the version the docs show) lies outside src/, below every layer.
        if (to === undefined || to === from) continue;
        const rank = LAYERS[to];
        if (rank === undefined || rank > LAYERS[from]!) {
          upward.push(`${file}:${line} imports '${specifier}': ${from} (${LAYERS[from]}) → ${to} (${rank})`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it(`core imports no package but ${CORE_PACKAGES.join(', ')}`, () => {
    const packages = new Set<string>();
    const others: string[] = [];
    for (const path of FILES.filter((file) => folderOf(file) === 'core')) {
      for (const { file, line, specifier } of importsOf(path)) {
        if (specifier.startsWith('.')) continue;
        packages.add(specifier);
        if (!CORE_PACKAGES.includes(specifier)) others.push(`${file}:${line} imports '${specifier}'`);
      }
    }
    expect(others).toEqual([]);
    // Each one listed is still used: the list, and the doc that repeats it, stay true.
    expect([...packages].sort()).toEqual(CORE_PACKAGES);
  });
});
