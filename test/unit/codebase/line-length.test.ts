import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SRC, typeScriptFiles } from './source-files';

const MAX = 120;
/** Where the TypeScript lives (tsconfig.json's include); node_modules, dist and .cache are elsewhere. */
const SOURCE_DIRS = ['src', 'scripts', 'test', 'devtools'];
/** Generated from the OpenAPI document (`npm run client:types`): its comments are the schemas' descriptions. */
const GENERATED = 'src/client/api/';

/** The hand-written TypeScript below `dir`. */
function handWritten(dir: string): string[] {
  return [...typeScriptFiles(dir)].filter((path) => !relative(ROOT, path).startsWith(GENERATED));
}

// Biome's formatter keeps lines within 120 but never splits a string or a comment, and
// Biome has no rule that flags the long lines left over: this test is that rule.
describe(`every TypeScript line is at most ${MAX} characters`, () => {
  it('in src, scripts, test, devtools and the root config files', () => {
    const files = [
      ...SOURCE_DIRS.flatMap((dir) => handWritten(join(ROOT, dir))),
      ...readdirSync(ROOT)
        .filter((name) => name.endsWith('.ts'))
        .map((name) => join(ROOT, name)),
    ];
    expect(files.length).toBeGreaterThan(100);
    const long: string[] = [];
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          // Characters as an editor counts them: code points, not UTF-16 units or bytes.
          const width = [...line].length;
          if (width > MAX) long.push(`${relative(ROOT, file)}:${index + 1} is ${width} characters`);
        });
    }
    expect(long).toEqual([]);
  });
});

const MAX_FILE_LINES = 250;

// Small files, one concept each: past this a file holds two, and a reader cannot keep it in view.
describe(`every file of src/ is at most ${MAX_FILE_LINES} lines`, () => {
  it('but the generated client types', () => {
    const files = handWritten(SRC);
    expect(files.length).toBeGreaterThan(100);
    const lines = (file: string) => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length;
    const long = files
      .filter((file) => lines(file) > MAX_FILE_LINES)
      .map((file) => `${relative(ROOT, file)} is ${lines(file)} lines`);
    expect(long).toEqual([]);
  });
});
