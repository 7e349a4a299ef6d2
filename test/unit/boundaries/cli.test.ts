import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBoundariesFile } from '../../../src/config/boundaries-file';
import { boundariesCli } from '../../../src/cli/boundaries-cli';
import { seedShapedTitles } from '../../../devtools/titles';
import { shuffledCopies } from '../../../devtools/zipf-keys';

/** End to end on temp files: formats, output file, chart, compare, errors. */
let dir: string;
let titles: string[];

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await boundariesCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    progress: false,
    env: {},
  });
  return { code, stdout, stderr };
}

function readOut(path: string) {
  return parseBoundariesFile(JSON.parse(readFileSync(path, 'utf8')), path) as ReturnType<typeof parseBoundariesFile> & {
    balance: { maxOverMean: number };
    shardCounts: number[];
    distinctKeys: number;
  };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shardline-boundaries-'));
  const generated = seedShapedTitles({ keys: 30_000, seed: 12 });
  titles = Array.from(shuffledCopies(generated), (i) => generated.titles[i]!);
  writeFileSync(join(dir, 'titles.txt'), titles.join('\n') + '\n');
  // The seed's MusicBrainz 'release' dump: tab-separated, no quoting, title in column 2.
  writeFileSync(
    join(dir, 'release'),
    titles.map((t, i) => `${i}\t${i.toString(16)}-uuid\t${t}\t${i % 97}\t\\N`).join('\n') + '\n',
  );
  writeFileSync(join(dir, 'titles.tsv'), `id\ttitle\n${titles.map((t, i) => `${i}\t${t}`).join('\n')}\n`);
  writeFileSync(join(dir, 'titles.txt.gz'), gzipSync(titles.join('\r\n') + '\r\n'));
  writeFileSync(
    join(dir, 'titles.ndjson'),
    titles.map((t, i) => JSON.stringify({ id: i, album: { title: t } })).join('\n') + '\n',
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run boundaries', () => {
  it('cuts one key per line into a boundaries file the service accepts, with a report and a chart', async () => {
    const out = join(dir, 'lines.json');
    const chart = join(dir, 'lines.svg');
    const { code, stderr } = await cli(
      '--shards',
      '5',
      '--input',
      join(dir, 'titles.txt'),
      '--out',
      out,
      '--chart',
      chart,
    );
    expect(code, stderr).toBe(0);
    const file = readOut(out);
    expect(file.boundaries).toHaveLength(5);
    expect(file.shardCount).toBe(5);
    expect(file.keyCount).toBe(30_000);
    expect(file.normalization).toBe('nfkd-lower');
    expect(file.balance.maxOverMean).toBeLessThanOrEqual(1.01);
    expect(file.shardCounts.reduce((a, b) => a + b, 0)).toBeCloseTo(30_000, 3);
    expect(stderr).toMatch(/5 shards over 30,000 keys/);
    expect(stderr).toMatch(/balance: largest [\d,]+ \/ mean 6,000 = 1\.0\d{3}/);
    expect(stderr).toMatch(/█/);
    const svg = readFileSync(chart, 'utf8');
    expect(svg.match(/<rect /g)).toHaveLength(5);
  });

  it('reads the same keys from tsv (0-based --column; --field with a header), ndjson, gzipped CRLF lines', async () => {
    const runs = [
      ['--input', join(dir, 'titles.txt')],
      ['--input', join(dir, 'release'), '--format', 'tsv', '--column', '2'],
      ['--input', join(dir, 'titles.tsv'), '--field', 'title'],
      ['--input', join(dir, 'titles.tsv'), '--column', '1', '--header'],
      ['--input', join(dir, 'titles.ndjson'), '--field', 'album.title'],
      ['--input', join(dir, 'titles.txt.gz')],
    ];
    const results: string[][] = [];
    for (const [n, args] of runs.entries()) {
      const out = join(dir, `same-${n}.json`);
      const { code, stderr } = await cli('--shards', '7', '--out', out, ...args);
      expect(code, stderr).toBe(0);
      expect(readOut(out).keyCount).toBe(30_000);
      results.push(readOut(out).boundaries);
    }
    for (const boundaries of results) expect(boundaries).toEqual(results[0]);
  });

  it('parses quoted CSV (commas, quotes, newlines) and reports skipped records', async () => {
    const csv = ['id,title', '1,"Hello, ""World"""', '2,"Two\nLines"', '3,plain', '4', '5,"Hello, ""World"""', ''].join(
      '\r\n',
    );
    writeFileSync(join(dir, 'titles.csv'), csv);
    const out = join(dir, 'csv.json');
    const { code, stderr } = await cli(
      '--shards',
      '2',
      '--input',
      join(dir, 'titles.csv'),
      '--field',
      'title',
      '--out',
      out,
    );
    expect(code, stderr).toBe(0);
    const file = readOut(out);
    expect(file.keyCount).toBe(4);
    expect(file.distinctKeys).toBe(3);
    expect(stderr).toMatch(/skipped 1 records: missing column/);
    expect(stderr).toContain('"Hello, \\"World\\""');
  });

  it('skips blank lines, bad JSON and keys the service cannot store, and says so', async () => {
    writeFileSync(
      join(dir, 'messy.ndjson'),
      ['{"t":"a"}', '', 'not json', '{"t":"b\\u0000x"}', '{"t":"\\ud800"}', '{"t":7}', '{"u":1}', '{"t":"c"}'].join(
        '\n',
      ),
    );
    const { code, stderr, stdout } = await cli('--shards', '2', '--input', join(dir, 'messy.ndjson'), '--field', 't');
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout).keyCount).toBe(3); // a, 7, c
    for (const reason of ['bad json', 'contains U+0000', 'unpaired surrogate', 'missing field'])
      expect(stderr).toContain(reason);
  });

  it('--compare reports the reshard cost: nothing for identical boundaries, a share for the seed ones', async () => {
    const out = join(dir, 'compare.json');
    await cli('--shards', '21', '--input', join(dir, 'titles.txt'), '--out', out);
    const same = await cli(
      '--shards',
      '21',
      '--input',
      join(dir, 'titles.txt'),
      '--compare',
      out,
      '--out',
      join(dir, 'again.json'),
    );
    expect(same.stderr).toMatch(/0 of 30,000 items \(0\.00 %\) would move/);
    // The same cut again: nothing to gain, nothing to move.
    expect(same.stderr).toMatch(
      /reshard would not pay: the largest shard would carry 0\.0 % less \(threshold: 10\.0 % less\)/,
    );
    const seed = await cli(
      '--shards',
      '21',
      '--input',
      join(dir, 'titles.txt'),
      '--compare',
      'boundaries/albums.json',
      '--out',
      join(dir, 'vs-seed.json'),
    );
    expect(seed.stderr).toMatch(/[1-9][\d,]* of 30,000 items \(\d+\.\d\d %\) would move/);
    expect(seed.stderr).toMatch(/balance now \d\.\d{4} \(largest \/ mean under boundaries\/albums\.json\), achievable/);
    const none = await cli(
      '--shards',
      '21',
      '--input',
      join(dir, 'titles.txt'),
      '--normalization',
      'none',
      '--compare',
      out,
      '--out',
      join(dir, 'none.json'),
    );
    expect(none.stderr).toMatch(/used normalization nfkd-lower, these keys none/);
  });

  it('rejects bad usage with exit code 2 and the usage text', async () => {
    const cases: [string[], RegExp][] = [
      [['--input', 'x'], /--shards must be a whole number/],
      [['--shards', '3'], /exactly one source/],
      [['--shards', '3', '--input', 'x', '--column', '1'], /--column applies to --format tsv or csv/],
      [['--shards', '3', '--input', 'x.ndjson'], /needs --field/],
      [['--shards', '3', '--input', 'x', '--normalization', 'nfc'], /--normalization must be one of/],
      [['--shards', '0', '--input', 'x'], /--shards must be/],
      [['--shards', '3', '--input', 'x', '--bogus'], /Unknown option/],
    ];
    for (const [argv, message] of cases) {
      const { code, stderr } = await cli(...argv);
      expect(code).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr).toContain('Usage: npm run boundaries');
    }
    const missing = await cli('--shards', '3', '--input', join(dir, 'nope.txt'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/ENOENT|no such file/);
  });

  it('runs as `npm run boundaries` and exits 0', () => {
    const out = join(dir, 'spawned.json');
    execFileSync(
      'npm',
      ['run', '-s', 'boundaries', '--', '--shards', '3', '--input', join(dir, 'titles.txt'), '--out', out, '--quiet'],
      {
        stdio: 'pipe',
      },
    );
    expect(readOut(out).boundaries).toHaveLength(3);
  });
});
