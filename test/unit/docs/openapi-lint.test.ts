import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from '../../../scripts/openapi-document';

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'node_modules/.bin');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface Finding {
  code: string;
  severity: number;
  message: string;
  path: string[];
}

/** A linter's CLI, from this repository's node_modules: its exit code and output, whatever the code. */
function run(command: string, args: string[]): Promise<Run> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  return new Promise((done) => {
    execFile(join(BIN, command), args, { cwd: ROOT, env, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      done({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, stdout, stderr });
    });
  });
}

/** The linters read a file: the document GET /openapi.json serves, with every optional route in. */
describe('the OpenAPI document passes Redocly and Spectral (rules: redocly.yaml, .spectral.yaml)', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shardline-openapi-'));
    file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(await openapiDocument(), null, 2));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('redocly lint: no error, no warning', async () => {
    const { code, stdout, stderr } = await run('redocly', ['lint', file, '--config', 'redocly.yaml', '--format=json']);
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map(
      ({ ruleId, severity, message, location }) => `${severity} ${ruleId} at ${location[0]?.pointer}: ${message}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(code, stderr).toBe(0);
  });

  it('spectral lint: no error, no warning', async () => {
    // Its JSON to a file: on stdout it is followed by a sentence when there are no results.
    const output = join(dir, 'spectral.json');
    const args = ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--output', output];
    const { code, stderr } = await run('spectral', args);
    const results = JSON.parse(readFileSync(output, 'utf8')) as Finding[];
    // Severity 0 is an error, 1 a warning (2 and 3, information and hints, are not findings to fix).
    const problems = results
      .filter(({ severity }) => severity <= 1)
      .map(
        ({ code, severity, message, path }) =>
          `${severity === 0 ? 'error' : 'warning'} ${code} at ${path.join('.')}: ${message}`,
      );
    expect(problems).toEqual([]);
    expect(code, stderr).toBe(0);
  });
});
