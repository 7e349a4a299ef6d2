import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedShapedTitles } from '../devtools/titles';
import { shuffledCopies } from '../devtools/zipf-keys';
import { numberArg, parseCommandLine } from '../src/cli/command-line';

/**
 * `npm run bench:boundaries [-- --keys 5000000 --shards 21 --file PATH --keep]`
 *
 * Generates a file of seed-shaped album titles (default 5 million, ~100 MB) in a
 * temp dir, then on that same file, one after the other:
 *  - the seed's method in pure Python: read lines, unicodedata.normalize('NFKD',
 *    s.lower()), sorted(), every n-th key cut at 20 characters;
 *  - `npm run boundaries` (our CLI, as a user runs it through tsx).
 * Prints both wall times, the ratio (target: ours ≤ 3 × Python) and the peak RSS of
 * each (target: ours ≤ 1.5 GiB), measured by /usr/bin/time -v. A figure printer,
 * not a timed test; the data never leaves the temp dir.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const PYTHON_SEED_METHOD = String.raw`
import json, math, sys, time, unicodedata
path, shard_count = sys.argv[1], int(sys.argv[2])
start = time.perf_counter()
with open(path, encoding='utf-8') as f:
    normalized = [unicodedata.normalize('NFKD', line.rstrip('\n').lower()) for line in f]
normalized = sorted(normalized)
shard_size = int(math.ceil(len(normalized) / shard_count))
boundaries = [key[:20] for key in normalized[::shard_size]]
boundaries[0] = ''
print(json.dumps({'seconds': time.perf_counter() - start, 'keys': len(normalized), 'boundaries': boundaries}))
`;

interface Measured {
  readonly wall: number;
  readonly rssMiB: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command under /usr/bin/time -v: wall seconds and peak RSS. */
function measure(command: string, args: string[]): Measured {
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', ['-v', command, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${command} failed (${run.status}):\n${run.stderr}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr);
  return { wall, rssMiB: rss ? Number(rss[1]) / 1024 : NaN, stdout: run.stdout, stderr: run.stderr };
}

async function writeKeys(path: string, keys: number): Promise<void> {
  const generated = seedShapedTitles({ keys, seed: 2026 });
  const order = shuffledCopies(generated);
  const out = createWriteStream(path);
  let buffer: string[] = [];
  for (const index of order) {
    buffer.push(generated.titles[index]!);
    if (buffer.length === 50_000) {
      if (!out.write(buffer.join('\n') + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
      buffer = [];
    }
  }
  out.write(buffer.length > 0 ? buffer.join('\n') + '\n' : '');
  await new Promise<void>((r, j) => out.end((e?: Error | null) => (e ? j(e) : r())));
}

const USAGE = `Usage: npm run bench:boundaries [-- options]

Times the seed's boundary method in Python against npm run boundaries on one file of
seed-shaped titles (wall time and peak RSS of each).

  --keys N      titles to generate (default 5000000, about 100 MB)
  --shards N    shards to cut (default 21)
  --file PATH   use this file of keys (one per line) instead of generating one
  --keep        keep the temp dir (the generated file and both outputs)
  --help`;

const { keys, shards, values } = parseCommandLine(
  'bench:boundaries',
  USAGE,
  {
    options: {
      keys: { type: 'string', default: '5000000' },
      shards: { type: 'string', default: '21' },
      file: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  },
  ({ values }) => ({
    keys: numberArg('keys', values.keys, { min: 1, integer: true }),
    shards: numberArg('shards', values.shards, { min: 1, integer: true }),
    values,
  }),
);
const dir = mkdtempSync(join(tmpdir(), 'shardline-bench-'));
try {
  let file = values.file;
  if (!file) {
    file = join(dir, 'titles.txt');
    const t = performance.now();
    await writeKeys(file, keys);
    console.log(
      `generated ${keys.toLocaleString('en-US')} seed-shaped titles: ${(statSync(file).size / 1e6).toFixed(1)}` +
        ` MB in ${((performance.now() - t) / 1000).toFixed(1)} s (${file})`,
    );
  } else if (!existsSync(file)) throw new Error(`no file ${file}`);

  const script = join(dir, 'seed_method.py');
  writeFileSync(script, PYTHON_SEED_METHOD);
  const python = measure('python3', [script, file, String(shards)]);
  const seed = JSON.parse(python.stdout) as { keys: number; boundaries: string[] };

  const out = join(dir, 'boundaries.json');
  const ours = measure(join(root, 'node_modules/.bin/tsx'), [
    join(root, 'scripts/boundaries.ts'),
    '--shards',
    String(shards),
    '--input',
    file,
    '--out',
    out,
    '--quiet',
  ]);
  const result = JSON.parse(readFileSync(out, 'utf8')) as {
    keyCount: number;
    balance: { maxOverMean: number };
    meanBoundaryLength: number;
  };
  if (result.keyCount !== seed.keys) throw new Error(`key counts differ: ours ${result.keyCount}, Python ${seed.keys}`);

  const meanSeed = seed.boundaries.slice(1).reduce((n, b) => n + [...b].length, 0) / (seed.boundaries.length - 1);
  const ratio = ours.wall / python.wall;
  console.log(`keys: ${seed.keys.toLocaleString('en-US')}, shards: ${shards}`);
  console.log(
    `python (seed method):  ${python.wall.toFixed(1)} s wall, peak RSS ${python.rssMiB.toFixed(0)}` +
      ` MiB, mean boundary ${meanSeed.toFixed(2)} chars`,
  );
  console.log(
    `npm run boundaries:    ${ours.wall.toFixed(1)} s wall, peak RSS ${ours.rssMiB.toFixed(0)}` +
      ` MiB, mean boundary ${result.meanBoundaryLength.toFixed(2)}` +
      ` chars, max/mean ${result.balance.maxOverMean.toFixed(4)}`,
  );
  console.log(`ratio ours / python:   ${ratio.toFixed(2)} (target ≤ 3) ${ratio <= 3 ? 'ok' : 'OVER'}`);
  console.log(
    `peak memory:           ${(ours.rssMiB / 1024).toFixed(2)} GiB` +
      ` (target ≤ 1.5) ${ours.rssMiB <= 1536 ? 'ok' : 'OVER'}`,
  );
  const timing = /time: .*/.exec(ours.stderr);
  if (timing) console.log(`our phases:            ${timing[0].slice(6)}`);
} finally {
  if (values.keep) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
