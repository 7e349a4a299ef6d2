import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleConfig } from '../../devtools/build-config';
import { runScript } from '../../devtools/child-process';

const BOOKS = { field: 'title', strategy: { kind: 'hash', shards: 4 } };

/**
 * A config with a misspelt key or absurd values stops every start, each problem one line naming
 * its file and field, and no stack trace: `npm start`, `npm run autopilot`, and the build of the
 * Worker and Lambda bundles (which resolve the config as they will).
 */
describe('a config shardline cannot take', () => {
  let dir: string;
  const write = (name: string, config: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(config));
    return path;
  };
  // Nothing listens there: the config is refused before any table is reached.
  const env = (config: string) => ({
    ...process.env,
    SHARDLINE_CONFIG: config,
    DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
  });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-config-refused-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops `npm start` naming a misspelt "autopilot" and where it is', async () => {
    const path = write('typo.json', { collections: { books: { ...BOOKS, autopliot: {} } } });
    const run = await runScript('src/runtime/node/main.ts', { ...env(path), PORT: '0' }, []).done;
    expect(run.code, run.output).toBe(1);
    expect(run.stderr).toContain(`shardline failed to start: ${path}: collections.books: unknown key "autopliot"`);
    expect(run.output).not.toContain('listening on');
  });

  it('stops `npm run autopilot` with one line per absurd value, no stack trace', async () => {
    const autopilot = { windowMinutes: -5, minGain: 3, maxShards: 'many' };
    const path = write('absurd.json', { collections: { books: { ...BOOKS, autopilot } } });
    const run = await runScript('scripts/autopilot.ts', env(path), ['--once']).done;
    expect(run.code, run.output).toBe(1);
    // The first line says who speaks ("autopilot: "); each names the file and the field.
    const lines = run.stderr
      .trim()
      .replace(/^autopilot: /, '')
      .split('\n');
    expect(lines.map((line) => line.split(': ').slice(0, 2).join(': '))).toEqual(
      ['minGain', 'windowMinutes', 'maxShards'].map((field) => `${path}: collections.books.autopilot.${field}`),
    );
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('fails the Worker and Lambda builds the same way, naming minShards over maxShards', () => {
    const path = write('bounds.json', {
      collections: { books: { ...BOOKS, autopilot: { minShards: 10, maxShards: 2 } } },
    });
    expect(() => bundleConfig(path)).toThrow(
      `${path}: collections.books.autopilot.minShards: must not exceed "maxShards"`,
    );
  });
});
