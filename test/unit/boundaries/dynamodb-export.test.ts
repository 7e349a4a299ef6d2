import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedShapedTitles } from '../../../devtools/titles';
import { shuffledCopies } from '../../../devtools/zipf-keys';
import { boundariesCli } from '../../../src/cli/boundaries-cli';

/**
 * A DynamoDB S3 export as input: a small export built here (the layout and DynamoDB
 * JSON lines AWS writes), read through `--format dynamodb-export`, against the same
 * keys as lines.
 */
let dir: string;
let exportDir: string;

async function cli(...argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await boundariesCli(argv, { stdout: () => {}, stderr: (t) => (stderr += t), progress: false, env: {} });
  return { code, stderr };
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

/** Writes AWSDynamoDB/<id>/data/<n>.json.gz files plus the manifests, items spread over `files`. */
function writeExport(root: string, items: Record<string, unknown>[], files: number): string {
  const id = '01700000000000-1a2b3c4d';
  const data = join(root, 'AWSDynamoDB', id, 'data');
  mkdirSync(data, { recursive: true });
  writeFileSync(join(root, 'AWSDynamoDB', id, 'manifest-summary.json'), JSON.stringify({ itemCount: items.length }));
  writeFileSync(join(root, 'AWSDynamoDB', id, 'manifest-files.json'), '');
  for (let f = 0; f < files; f++) {
    const lines = items.filter((_, i) => i % files === f).map((item) => JSON.stringify({ Item: item }));
    writeFileSync(join(data, `part-${f}-x7k2.json.gz`), gzipSync(`${lines.join('\n')}\n`));
  }
  return join(root, 'AWSDynamoDB');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shardline-export-'));
  const generated = seedShapedTitles({ keys: 30_000, seed: 21 });
  const titles = Array.from(shuffledCopies(generated), (i) => generated.titles[i]!);
  const items = titles.map((title, i) => ({ pk: { S: `album#${i}` }, title: { S: title }, year: { N: '1999' } }));
  // Numbers are keys as their text; items without the attribute, or with another type, are skipped.
  items.push({ pk: { S: 'album#n' }, title: { N: '1984' } } as never);
  items.push({ pk: { S: 'album#missing' } } as never);
  items.push({ pk: { S: 'album#list' }, title: { L: [] } } as never);
  exportDir = writeExport(join(dir, 'export'), items, 3);
  writeFileSync(join(dir, 'titles.txt'), `${[...titles, '1984'].join('\n')}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--format dynamodb-export', () => {
  it('gives the same boundaries as the same keys read as lines, and reports skipped items', async () => {
    const fromExport = await cli(
      ...['--shards', '21', '--input', exportDir, '--format', 'dynamodb-export', '--field', 'title'],
      ...['--out', join(dir, 'export.json')],
    );
    expect(fromExport.code, fromExport.stderr).toBe(0);
    const fromLines = await cli('--shards', '21', '--input', join(dir, 'titles.txt'), '--out', join(dir, 'lines.json'));
    expect(fromLines.code, fromLines.stderr).toBe(0);
    const a = readJson(join(dir, 'export.json'));
    const b = readJson(join(dir, 'lines.json'));
    expect(a.boundaries).toEqual(b.boundaries);
    expect(a.keyCount).toBe(30_001);
    expect(a.distinctKeys).toBe(b.distinctKeys);
    expect(fromExport.stderr).toMatch(/skipped 1 records: missing field/);
    expect(fromExport.stderr).toMatch(/skipped 1 records: not a string/);
  });

  it('sketches each data file on its own and merges them under --max-memory', async () => {
    const out = join(dir, 'export-sketch.json');
    const run = await cli(
      ...['--shards', '21', '--input', join(dir, 'export'), '--format', 'dynamodb-export', '--field', 'title'],
      ...['--max-memory', '16', '--out', out],
    );
    expect(run.code, run.stderr).toBe(0);
    const file = readJson(out);
    expect(file.keyCount).toBe(30_001);
    expect(file.sketch.rankErrorBound).toBeGreaterThan(0); // counted by the sketch, not exactly
    expect(file.balance.maxOverMean).toBeLessThan(1.03 + file.sketch.maxOverMeanErrorBound);
    expect(run.stderr).toMatch(/sketch: .* keys held; every shard count above is within ±/);
  });

  it('says what is wrong with a folder that holds no export, or a missing --field', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const none = await cli('--shards', '3', '--input', empty, '--format', 'dynamodb-export', '--field', 'title');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no DynamoDB export under .*AWSDynamoDB\/<export id>\/data\/\*\.json\.gz/);
    const noField = await cli('--shards', '3', '--input', exportDir, '--format', 'dynamodb-export');
    expect(noField.code).toBe(2);
    expect(noField.stderr).toMatch(/--format dynamodb-export needs --field NAME/);
    const small = await cli('--shards', '3', '--input', join(dir, 'titles.txt'), '--max-memory', '4');
    expect(small.code).toBe(2);
    expect(small.stderr).toMatch(/--max-memory is a whole number of MiB from 16/);
  });
});
