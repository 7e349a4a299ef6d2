import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { seededRandom } from '../devtools/random';
import { quantile, median } from '../devtools/stats';
import { titlesOverRanges } from '../devtools/titles';
import { cutBoundaries } from '../src/boundaries/cut-boundaries';
import { keyCountsFromMap } from '../src/boundaries/key-counts';
import type { MapPointer } from '../src/core/shard-map';
import { Reshard } from '../src/reshard/orchestrator';
import { buildService, prepareTables, type Service } from '../src/runtime/service';
import { readSettings } from '../src/runtime/settings';
import { scanCollectionKeys } from '../src/service/collection-keys';
import { STALE_AFTER_TTLS } from '../src/service/shard-maps';
import type { AttributeUpdate } from '../src/store/maintenance';
import { parseCommandLine, numberArg } from '../src/cli/command-line';

const USAGE = `Usage: npm run bench:reshard -- [--items N] [--shards N] [--rate N] [--quiet-seconds S]

Measures an online reshard on DynamoDB Local, in one run: a range collection of N items
(default 10000) moves to N balanced shards cut from a live scan (default 24) while a
reader pages whole listings and a writer writes, as before the reshard for a while.
Prints items moved per second, write units per moved item (DynamoDB Local counts index
writes), listing read amplification and p99 page time during vs before, and the
longest write during vs before (writes are never blocked: no phase waits on them).
--rate N caps the reshard's scans at N items a second, as an operator would to leave
the table's capacity to the application (default: no cap).`;

const ROOT = resolve(import.meta.dirname, '..');
const TTL_MS = 200;
const DEADLINE_MS = 3000;

interface Sample {
  readonly at: number;
  readonly ms: number;
  readonly read?: number;
  readonly returned?: number;
}

async function main(): Promise<void> {
  const options = parseCommandLine(
    'bench:reshard',
    USAGE,
    {
      options: {
        items: { type: 'string' },
        shards: { type: 'string' },
        rate: { type: 'string' },
        'quiet-seconds': { type: 'string' },
      },
    },
    ({ values }) => ({
      items: values.items === undefined ? 10_000 : numberArg('items', values.items, { min: 100, integer: true }),
      shards: values.shards === undefined ? 24 : numberArg('shards', values.shards, { min: 2, integer: true }),
      rate: values.rate === undefined ? undefined : numberArg('rate', values.rate, { min: 1, integer: true }),
      quietSeconds:
        values['quiet-seconds'] === undefined ? 8 : numberArg('quiet-seconds', values['quiet-seconds'], { min: 1 }),
    }),
  );
  const engine = await startDynamoDbLocal();
  try {
    const settings = readSettings({
      DYNAMODB_ENDPOINT: engine.endpoint,
      TABLE_NAME: 'shardline-reshard-bench',
      CURSOR_SECRET: 'bench-secret',
      SHARDLINE_MAP_TTL_MS: String(TTL_MS),
      REQUEST_TIMEOUT_MS: String(DEADLINE_MS),
      LOG_LEVEL: 'off',
    });
    const config = JSON.parse(readFileSync(resolve(ROOT, 'config/shardline.config.json'), 'utf8'));
    const service = buildService(settings, config, {
      readBoundaries: (file) => JSON.parse(readFileSync(resolve(ROOT, 'config', file), 'utf8')),
      client: { credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } },
    });
    await prepareTables(service, true);
    const albums = service.collections.find((c) => c.name === 'albums')!;
    process.stderr.write(`loading ${options.items.toLocaleString('en-US')} items into albums…\n`);
    await load(
      service,
      titlesOverRanges(seededRandom(5), albums.initialStrategy.config.boundaries as string[], options.items),
    );

    const reads: { phase: string; sample: Sample }[] = [];
    const writes: { phase: string; sample: Sample }[] = [];
    let phase = 'before';
    let stop = false;
    const reader = (async () => {
      while (!stop) for (const sample of await walk(service)) reads.push({ phase, sample });
    })();
    const writer = (async () => {
      for (let n = 0; !stop; n++) writes.push({ phase, sample: await write(service, n) });
    })();
    await sleep(options.quietSeconds * 1000);

    const { read } = await service.maps.snapshot(albums, {});
    const scan = await scanCollectionKeys((request, context) => service.dynamo.items.scanPage(request, context), read);
    const boundaries = cutBoundaries(keyCountsFromMap(scan.counts), { shards: options.shards }).boundaries;
    const units = { set: 0, setItems: 0, remove: 0, removeItems: 0 };
    const phaseStarted = new Map<string, number>();
    const reshard = new Reshard({
      mapStore: service.dynamo.mapStore,
      writer: {
        updateAttributes: async (update: AttributeUpdate, context) => {
          const outcome = await service.dynamo.items.updateAttributes(update, context);
          const kind = update.remove ? 'remove' : 'set';
          if (outcome.applied) {
            units[kind] += outcome.writeUnits ?? 0;
            units[kind === 'set' ? 'setItems' : 'removeItems']++;
          }
          return outcome;
        },
      },
      scanPage: (request, context) => service.dynamo.items.scanPage(request, context),
      ensureIndex: async () => {},
      collection: albums,
      settleMs: STALE_AFTER_TTLS * TTL_MS + DEADLINE_MS + 1000,
      groupMapTtlMs: TTL_MS,
      leaseMs: 10_000,
      scan: { segments: 8, concurrency: 4, pageSize: 500 },
      ...(options.rate !== undefined && { rate: options.rate }),
      log: (line) => process.stderr.write(`reshard: ${line}\n`),
      onPointer: (pointer: MapPointer) => {
        if (!phaseStarted.has(pointer.phase)) phaseStarted.set(pointer.phase, performance.now());
        phase = pointer.phase === 'stable' ? 'after' : 'during';
      },
    });
    const started = performance.now();
    phase = 'during';
    const outcome = await reshard.run({ kind: 'range', boundaries });
    const total = (performance.now() - started) / 1000;
    stop = true;
    await Promise.all([reader, writer]);

    const span = (from: string, to: string) => ((phaseStarted.get(to) ?? 0) - (phaseStarted.get(from) ?? 0)) / 1000;
    const backfillSeconds = span('backfill', 'verify');
    report({
      reads,
      writes,
      units,
      backfillSeconds,
      total,
      moved: outcome.moved,
      items: options.items,
      rate: options.rate,
    });
  } finally {
    await engine.stop();
  }
}

function report(run: {
  reads: { phase: string; sample: Sample }[];
  writes: { phase: string; sample: Sample }[];
  units: { set: number; setItems: number; remove: number; removeItems: number };
  backfillSeconds: number;
  total: number;
  moved: number;
  items: number;
  rate: number | undefined;
}): void {
  const pages = (phase: string) => run.reads.filter((r) => r.phase === phase).map((r) => r.sample);
  const writesIn = (phase: string) => run.writes.filter((w) => w.phase === phase).map((w) => w.sample.ms);
  const amplification = (samples: Sample[]) => median(samples.map((s) => s.read! / Math.max(1, s.returned!)));
  const [before, during] = [pages('before'), pages('during')];
  const p99 = (samples: Sample[]) =>
    quantile(
      samples.map((s) => s.ms),
      0.99,
    );
  const [writesBefore, writesDuring] = [writesIn('before'), writesIn('during')];
  const f = (value: number, digits = 2) => value.toFixed(digits);
  const rows: [string, string, string][] = [
    ['items in the collection', String(run.items), run.rate ? `scans capped at ${run.rate} items/s` : 'no rate cap'],
    ['whole reshard (3 settle waits included)', `${f(run.total, 1)} s`, ''],
    ['backfill: items moved per second', f(run.units.setItems / run.backfillSeconds, 0), ''],
    ['write units per moved item (backfill, index included)', f(run.units.set / run.units.setItems), 'target ≤ 2'],
    ['write units per old entry removed (finalize)', f(run.units.remove / Math.max(1, run.units.removeItems)), ''],
    [
      'listing read ÷ returned, before / during (median)',
      `${f(amplification(before))} / ${f(amplification(during))}`,
      'range ≤ 1.15',
    ],
    [
      'listing page p99, before / during',
      `${f(p99(before), 1)} / ${f(p99(during), 1)} ms`,
      `${f(p99(during) / p99(before))}× (target ≤ 1.5×)`,
    ],
    ['pages measured, before / during', `${before.length} / ${during.length}`, ''],
    [
      'write p99, before / during',
      `${f(quantile(writesBefore, 0.99), 1)} / ${f(quantile(writesDuring, 0.99), 1)} ms`,
      '',
    ],
    [
      'longest write, before / during',
      `${f(Math.max(...writesBefore), 1)} / ${f(Math.max(...writesDuring), 1)} ms`,
      'writes blocked: 0 s',
    ],
  ];
  console.log('| figure | value | note |\n|---|---|---|');
  for (const [name, value, note] of rows) console.log(`| ${name} | ${value} | ${note} |`);
}

async function load(service: Service, titles: string[]): Promise<void> {
  for (let start = 0; start < titles.length; start += 1000) {
    const items = titles
      .slice(start, start + 1000)
      .map((title, i) => ({ pk: `album#${start + i}`, sk: 'bench', title }));
    const response = await service.app.request('/collections/albums/items/batch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    });
    const body = (await response.json()) as { written: number };
    if (body.written !== items.length) throw new Error(`load: ${JSON.stringify(body).slice(0, 200)}`);
  }
}

/** One whole listing of albums, pages of 100: each page's time and reads. */
async function walk(service: Service): Promise<Sample[]> {
  const samples: Sample[] = [];
  let cursor: string | null = null;
  do {
    const started = performance.now();
    const response = await service.app.request(
      `/collections/albums/items?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    const body = (await response.json()) as { items: unknown[]; nextCursor: string | null };
    if (response.status !== 200) throw new Error(`listing: ${response.status} ${JSON.stringify(body)}`);
    samples.push({
      at: started,
      ms: performance.now() - started,
      read: Number(response.headers.get('x-items-read')),
      returned: body.items.length,
    });
    cursor = body.nextCursor;
  } while (cursor);
  return samples;
}

async function write(service: Service, n: number): Promise<Sample> {
  const started = performance.now();
  const response = await service.app.request('/collections/albums/items', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pk: `new#${n}`, sk: 'bench', title: `written during ${n}` }),
  });
  if (response.status !== 201) throw new Error(`write: ${response.status} ${await response.text()}`);
  await sleep(20);
  return { at: started, ms: performance.now() - started };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}

await main();
