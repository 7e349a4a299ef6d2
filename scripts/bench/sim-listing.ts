/**
 * `tsx scripts/bench/sim-listing.ts [--items N] [--page N] [--every N]`: walks every demo
 * strategy's listing through the real `listPage` over an in-memory store and prints
 * per-page medians of items read ÷ returned, queries and sequential waves (round
 * trips), for a first walk (no shard-end hints yet) and a second. No engine, no
 * noise: the tool for tuning read limits. `--every 2` keeps the titles of every other range
 * shard only (sparse shards: half of them empty), `--items 1` a near-empty collection.
 */
import { bisectRight } from '../../src/core/collation';
import { firstMapOf } from '../../src/core/collection';
import { normalize } from '../../src/core/normalize';
import { resolveConfig } from '../../src/config/config';
import { prepareItem } from '../../src/core/item';
import type { ReadHint } from '../../src/core/read-hint';
import { listPage } from '../../src/service/listing/executor';
import { ShardTailsByCollection } from '../../src/service/listing/shard-tails';
import { benchConfig } from './fixture';
import { albumItem } from './items';
import { numberArg, parseCommandLine } from '../../src/cli/command-line';
import { MemoryStore } from './memory-store';
import { seededRandom } from '../../devtools/random';
import { mean, quantile } from '../../devtools/stats';
import { titlesOverRanges } from '../../devtools/titles';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const USAGE = `Usage: tsx scripts/bench/sim-listing.ts [--items N] [--page N] [--every N]

  --items N   items per collection (default 4200)
  --page N    page size (default 100)
  --every N   keep the titles of every Nth range shard only, the others empty (default 1: all)
  --help`;

const { items, pageSize, every } = parseCommandLine(
  'sim-listing',
  USAGE,
  {
    options: {
      items: { type: 'string', default: '4200' },
      page: { type: 'string', default: '100' },
      every: { type: 'string', default: '1' },
    },
  },
  ({ values }) => ({
    items: numberArg('items', values.items, { min: 1, integer: true }),
    pageSize: numberArg('page', values.page, { min: 1, integer: true }),
    every: numberArg('every', values.every, { min: 1, integer: true }),
  }),
);
const collections = resolveConfig(benchConfig(), {
  readBoundaries: (file) => JSON.parse(readFileSync(resolve(import.meta.dirname, '../../config', file), 'utf8')),
}).map(firstMapOf);
const boundaries = collections.find((c) => c.map.strategy.kind === 'range')!.map.strategy.boundaries!;
const titles = titlesOverRanges(seededRandom(4), boundaries, items).filter(
  (title) => (bisectRight(boundaries, normalize(title, 'nfkd-lower')) - 1) % every === 0,
);
const count = titles.length;
// The shard tails the service keeps across requests, per collection: the second walk reads with the first's.
const tailsByCollection = new ShardTailsByCollection();

for (const direction of ['asc', 'desc'] as const) {
  for (const collection of collections) {
    const store = new MemoryStore(collection.map.index.indexKeyAttribute);
    const random = seededRandom(5);
    titles.forEach((title, n) => {
      const prepared = prepareItem(collection, albumItem(random, n, title), random);
      store.add(prepared.shardKey, prepared.record);
    });
    store.sort();
    for (const walk of ['first walk', 'second walk']) {
      const ratios: number[] = [];
      const queries: number[] = [];
      const waves: number[] = [];
      let after: string | undefined;
      let hint: ReadHint | undefined;
      let total = 0;
      for (;;) {
        const calls = store.calls;
        const listing = await listPage(
          { store, collection, tails: tailsByCollection.of(collection.name), context: {} },
          { filter: { kind: 'all' }, direction, ...(after !== undefined && { after }), ...(hint && { hint }) },
          pageSize,
        );
        const read = listing.stats.itemsRead;
        total += listing.records.length;
        if (listing.records.length > 0) ratios.push(read / listing.records.length);
        queries.push(store.calls - calls);
        waves.push(listing.stats.roundTrips);
        if (listing.nextPosition === undefined) break;
        after = listing.nextPosition;
        // As the cursor carries it.
        hint = listing.nextHint;
      }
      if (total !== count) throw new Error(`${collection.name}: listed ${total} of ${count}`);
      const f = (values: number[]) =>
        `p50 ${quantile(values, 0.5).toFixed(2)} mean ${mean(values).toFixed(2)}` +
        ` p90 ${quantile(values, 0.9).toFixed(2)}`;
      // Pages by waves: latency follows the waves, so their spread matters as much as the median.
      const pagesByWaves = new Map<number, number>();
      for (const n of waves) pagesByWaves.set(n, (pagesByWaves.get(n) ?? 0) + 1);
      const spread = [...pagesByWaves]
        .sort(([a], [b]) => a - b)
        .map(([n, pages]) => `${n}: ${Math.round((100 * pages) / waves.length)}%`);
      console.log(
        `${direction} ${collection.name.padEnd(14)} ${walk.padEnd(11)} read÷returned ${f(ratios)}` +
          ` | queries ${f(queries)} | waves ${f(waves)} (${spread.join(', ')})`,
      );
    }
  }
}
