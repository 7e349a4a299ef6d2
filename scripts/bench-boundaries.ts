import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom, shuffle } from '../devtools/random';
import { seedShapedTitles } from '../devtools/titles';
import { shuffledCopies } from '../devtools/zipf-keys';
import { numberArg, parseCommandLine } from '../src/cli/command-line';

/**
 * `npm run bench:boundaries [-- options]` (see USAGE): the seed's boundary method in
 * Python against `npm run boundaries` on the same files, back to back, repeated;
 * medians of wall time and peak RSS (/usr/bin/time -v). A figure printer, not a
 * timed test. Data stays out of git: generated files in a temp dir, the npm names
 * in a cache dir (`npm pack all-the-package-names`, fetched once).
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NAMES_PACKAGE = 'all-the-package-names@2.0.2578';

const PYTHON_SEED_METHOD = String.raw`
import json, math, sys, unicodedata
path, shard_count = sys.argv[1], int(sys.argv[2])
with open(path, encoding='utf-8') as f:
    normalized = [unicodedata.normalize('NFKD', line.rstrip('\n').lower()) for line in f]
normalized = sorted(normalized)
shard_size = int(math.ceil(len(normalized) / shard_count))
boundaries = [key[:20] for key in normalized[::shard_size]]
boundaries[0] = ''
print(json.dumps({'keys': len(normalized), 'boundaries': boundaries}))
`;

const USAGE = `Usage: npm run bench:boundaries [-- options]

Times the seed's boundary method in Python against npm run boundaries, back to back
on each file: every npm package name (4.5 M short ASCII names, as shipped and
shuffled) and generated seed-shaped titles (Unicode-heavy).

  --keys N           titles to generate (default 5000000, about 100 MB)
  --shards N         shards to cut (default 21)
  --runs N           runs of each tool per file, medians reported (default 3)
  --data NAME,…      names, names-shuffled, titles (default all three)
  --file PATH        also time this file of keys (one per line)
  --max-memory MIB   also time npm run boundaries --max-memory MIB on each file
  --stream N         instead: pipe N generated titles (not stored) into
                     npm run boundaries --input - --max-memory MIB (default 128)
  --cache DIR        where the npm names are kept (default ~/.cache/shardline-bench)
  --help`;

const options = parseCommandLine(
  'bench:boundaries',
  USAGE,
  {
    options: {
      keys: { type: 'string', default: '5000000' },
      shards: { type: 'string', default: '21' },
      runs: { type: 'string', default: '3' },
      data: { type: 'string', default: 'names,names-shuffled,titles' },
      file: { type: 'string' },
      'max-memory': { type: 'string' },
      stream: { type: 'string' },
      cache: { type: 'string', default: join(homedir(), '.cache', 'shardline-bench') },
    },
  },
  ({ values }) => ({
    keys: numberArg('keys', values.keys, { min: 1, integer: true }),
    shards: numberArg('shards', values.shards, { min: 1, integer: true }),
    runs: numberArg('runs', values.runs, { min: 1, integer: true }),
    data: values.data.split(',').filter((d) => d !== ''),
    file: values.file,
    maxMemory: values['max-memory'] && numberArg('max-memory', values['max-memory'], { min: 16, integer: true }),
    stream: values.stream && numberArg('stream', values.stream, { min: 1, integer: true }),
    cache: values.cache,
  }),
);

interface Measured {
  readonly wall: number;
  readonly rssMiB: number;
  readonly stdout: string;
  readonly stderr: string;
}

const TIME = ['-f', 'peak-rss-kb %M'];

/** Runs a command under /usr/bin/time: wall seconds and peak RSS. */
function measure(command: string, args: string[]): Measured {
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', [...TIME, command, ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const wall = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${command} failed (${run.status}):\n${run.stderr}`);
  return { wall, rssMiB: peakRss(run.stderr), stdout: run.stdout, stderr: run.stderr };
}

function peakRss(stderr: string): number {
  const rss = /peak-rss-kb (\d+)/.exec(stderr);
  return rss ? Number(rss[1]) / 1024 : Number.NaN;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** `npm run boundaries` as package.json runs it (node --import tsx), without npm's own start. */
const ours = (file: string, out: string, extra: string[] = []): string[] => [
  '--import',
  'tsx',
  join(root, 'scripts/boundaries.ts'),
  ...['--shards', String(options.shards), '--input', file, '--out', out, '--quiet', ...extra],
];
const node = process.execPath;

/** Every npm package name, one per line, in the package's order (fetched once with npm pack). */
function npmNames(cache: string): string {
  const file = join(cache, `${NAMES_PACKAGE.replace('@', '-')}.txt`);
  if (existsSync(file)) return file;
  mkdirSync(cache, { recursive: true });
  const pack = spawnSync('npm', ['pack', NAMES_PACKAGE, '--pack-destination', cache, '--silent'], { encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack ${NAMES_PACKAGE} failed:\n${pack.stderr}`);
  const tarball = join(cache, pack.stdout.trim().split('\n').pop()!);
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', cache, 'package/names.json'], { encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(`tar failed:\n${untar.stderr}`);
  const names = JSON.parse(readFileSync(join(cache, 'package/names.json'), 'utf8')) as string[];
  writeFileSync(file, `${names.join('\n')}\n`);
  return file;
}

/** The same names in a fixed random order: a table's scan or export comes in hash order, not sorted. */
function shuffledNames(cache: string): string {
  const file = join(cache, `${NAMES_PACKAGE.replace('@', '-')}-shuffled.txt`);
  if (existsSync(file)) return file;
  const names = readFileSync(npmNames(cache), 'utf8')
    .split('\n')
    .filter((n) => n !== '');
  shuffle(seededRandom(2026), names);
  writeFileSync(file, `${names.join('\n')}\n`);
  return file;
}

async function writeTitles(path: string, keys: number): Promise<void> {
  const generated = seedShapedTitles({ keys, seed: 2026 });
  const order = shuffledCopies(generated);
  const out = createWriteStream(path);
  for (let start = 0; start < order.length; start += 50_000) {
    const batch = Array.from(order.subarray(start, start + 50_000), (i) => generated.titles[i]!);
    if (!out.write(`${batch.join('\n')}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r, j) => out.end((e?: Error | null) => (e ? j(e) : r())));
}

/** Python and ours back to back, `runs` times; medians. */
function compare(label: string, file: string, dir: string): void {
  const script = join(dir, 'seed_method.py');
  writeFileSync(script, PYTHON_SEED_METHOD);
  const out = join(dir, 'boundaries.json');
  const py: Measured[] = [];
  const js: Measured[] = [];
  const sketch: Measured[] = [];
  for (let run = 0; run < options.runs; run++) {
    py.push(measure('python3', [script, file, String(options.shards)]));
    js.push(measure(node, ours(file, out)));
    if (options.maxMemory) sketch.push(measure(node, ours(file, `${out}.sketch`, sketchArgs())));
  }
  const seed = JSON.parse(py[0]!.stdout) as { keys: number };
  const result = JSON.parse(readFileSync(out, 'utf8')) as { keyCount: number; balance: { maxOverMean: number } };
  if (result.keyCount !== seed.keys) throw new Error(`key counts differ: ours ${result.keyCount}, Python ${seed.keys}`);
  const pyWall = median(py.map((m) => m.wall));
  const jsWall = median(js.map((m) => m.wall));
  const row = (name: string, ms: Measured[], extra = ''): string =>
    `  ${name.padEnd(30)} ${median(ms.map((m) => m.wall))
      .toFixed(2)
      .padStart(6)} s  ` +
    `${median(ms.map((m) => m.rssMiB))
      .toFixed(0)
      .padStart(5)} MiB   runs: ` +
    `${ms.map((m) => m.wall.toFixed(2)).join(', ')}${extra}`;
  console.log(`${label}: ${seed.keys.toLocaleString('en-US')} keys, ${(statSync(file).size / 1e6).toFixed(1)} MB`);
  console.log(row('python (seed method)', py));
  console.log(row('npm run boundaries', js, `; max/mean ${result.balance.maxOverMean.toFixed(4)}`));
  const phases = /time: (.*)/.exec(js[js.length - 1]!.stderr);
  if (phases) console.log(`    last run's phases: ${phases[1]}`);
  if (sketch.length > 0) {
    const sketched = JSON.parse(readFileSync(`${out}.sketch`, 'utf8')) as {
      balance: { maxOverMean: number };
      sketch: { maxOverMeanErrorBound: number };
    };
    console.log(
      row(`  --max-memory ${options.maxMemory}`, sketch) +
        `; max/mean ${sketched.balance.maxOverMean.toFixed(4)} ± ${sketched.sketch.maxOverMeanErrorBound.toFixed(4)}`,
    );
  }
  console.log(`  ratio ours / python (medians): ${(jsWall / pyWall).toFixed(2)} (target ≤ 1)\n`);
}

const sketchArgs = (): string[] => ['--max-memory', String(options.maxMemory)];

/** Pipes `count` generated titles into the CLI, a million at a time: neither side stores them all. */
async function stream(count: number, dir: string): Promise<void> {
  const mib = options.maxMemory || 128;
  const out = join(dir, 'stream.json');
  const started = performance.now();
  const child = spawn('/usr/bin/time', [...TIME, node, ...ours('-', out, ['--max-memory', String(mib)])], {
    cwd: root,
    stdio: ['pipe', 'inherit', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<number>((r) => child.on('close', (code) => r(code ?? 1)));
  for (let done = 0, batch = 0; done < count; batch++) {
    const keys = Math.min(1_000_000, count - done);
    const generated = seedShapedTitles({ keys, seed: 2026 + batch });
    const order = shuffledCopies(generated, batch);
    for (let start = 0; start < order.length; start += 50_000) {
      const lines = Array.from(order.subarray(start, start + 50_000), (i) => generated.titles[i]!);
      if (!child.stdin.write(`${lines.join('\n')}\n`))
        await new Promise<void>((r) => child.stdin.once('drain', () => r()));
    }
    done += keys;
  }
  child.stdin.end();
  if ((await closed) !== 0) throw new Error(`npm run boundaries failed:\n${stderr}`);
  const result = JSON.parse(readFileSync(out, 'utf8')) as {
    keyCount: number;
    balance: { maxOverMean: number };
    sketch: { maxOverMeanErrorBound: number; retainedKeys: number };
  };
  console.log(
    `streamed ${result.keyCount.toLocaleString('en-US')} generated titles into --max-memory ${mib}: ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s (generating included), ` +
      `peak RSS ${peakRss(stderr).toFixed(0)} MiB, max/mean ${result.balance.maxOverMean.toFixed(4)}` +
      ` ± ${result.sketch.maxOverMeanErrorBound.toFixed(4)},` +
      ` ${result.sketch.retainedKeys.toLocaleString('en-US')} keys held`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'shardline-bench-'));
try {
  if (options.stream) await stream(options.stream, dir);
  else {
    console.log(`${options.shards} shards, ${options.runs} runs each, medians (wall, peak RSS)\n`);
    for (const data of options.data) {
      if (data === 'names') compare('npm package names (as shipped)', npmNames(options.cache), dir);
      else if (data === 'names-shuffled') compare('npm package names (shuffled)', shuffledNames(options.cache), dir);
      else if (data === 'titles') {
        const file = join(dir, 'titles.txt');
        await writeTitles(file, options.keys);
        compare(`generated seed-shaped titles`, file, dir);
      } else throw new Error(`unknown --data ${data}: names, names-shuffled or titles`);
    }
    if (options.file) compare(options.file, options.file, dir);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
