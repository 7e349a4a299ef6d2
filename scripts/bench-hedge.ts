/**
 * `npm run bench:hedge`: tail latency of fan-out pages under skewed DynamoDB latency, with
 * hedged shard queries off and on, in turns, in one run. A lognormal delay per call (median
 * `--median` ms, σ `--sigma`) sits between the router and DynamoDB Local; each round walks
 * the 21-shard hash collection and the one-shard collection through both routers. Prints
 * p50/p99 per page, the share of pages that waited for a second wave (refilled), the hash
 * page's p99 against the one-shard page's (unhedged, and hedged alike), with a bootstrap
 * interval of each ratio, and what hedging cost in queries (on the hash pages, and with the
 * warm-up walk's, over which the collection's hedge budget holds). The defaults walk 500 hash
 * pages a row and 1,500 one-shard pages (three walks a round: they are short): the p99 of 500
 * pages is their fifth slowest.
 */
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { seededRandom } from '../devtools/random';
import { bootstrapInterval, quantile } from '../devtools/stats';
import { numberArg, parseCommandLine } from '../src/cli/command-line';
import type { Service } from '../src/runtime/service';
import { benchService, loadItems } from './bench/fixture';
import type { PageSample } from './bench/page-sample';
import { startDelayProxy } from './bench/processes';
import { walkRouter } from './bench/walk-router';

const USAGE = `Usage: npm run bench:hedge -- [--items N] [--rounds N] [--median MS] [--sigma S]

Walks albums-hash (21 shards) and albums-one (1 shard) through a lognormal-latency proxy
with SHARDLINE_HEDGE off and on, in turns: p50/p99 per page and the queries hedges cost.
Defaults: --items 5000 --rounds 10 (500 hash pages and 1,500 one-shard pages per row), --median 8 --sigma 0.8.`;

const options = parseCommandLine(
  'bench:hedge',
  USAGE,
  {
    options: {
      items: { type: 'string', default: '5000' },
      rounds: { type: 'string', default: '10' },
      median: { type: 'string', default: '8' },
      sigma: { type: 'string', default: '0.8' },
    },
  },
  ({ values }) => ({
    items: numberArg('items', values.items, { min: 100, integer: true }),
    rounds: numberArg('rounds', values.rounds, { min: 1, integer: true }),
    median: numberArg('median', values.median, { min: 0 }),
    sigma: numberArg('sigma', values.sigma, { min: 0 }),
  }),
);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const log = (line: string) => process.stderr.write(`bench:hedge: ${line}\n`);
const PAGE = 100;
const COLLECTIONS = ['albums-hash', 'albums-one'] as const;
/** Walks a round per collection: the one-shard page is the reference, and cheap to sample more of. */
const WALKS: Record<(typeof COLLECTIONS)[number], number> = { 'albums-hash': 1, 'albums-one': 3 };

log('starting DynamoDB Local');
const engine = await startDynamoDbLocal();
const proxy = await startDelayProxy(engine.endpoint, options.median, options.sigma);
try {
  log(`loading ${options.items} items`);
  await loadItems(benchService(engine.endpoint), options.items, 1);
  const routers: Record<'off' | 'on', Service> = {
    off: benchService(proxy.endpoint, { SHARDLINE_HEDGE: 'false' }),
    on: benchService(proxy.endpoint, { SHARDLINE_HEDGE: 'true' }),
  };
  const pages = new Map<string, PageSample[]>();
  /** The warm-up walks' pages: a collection's hedge budget holds over all its queries, theirs included. */
  const warmUps = new Map<string, PageSample[]>();
  for (const [mode, router] of Object.entries(routers)) {
    // A warm-up walk each: the JIT, the connections, and the hedging router's latency history.
    for (const collection of COLLECTIONS)
      warmUps.set(`${collection} ${mode}`, await walkRouter(router.app, collection, PAGE));
    log(`warmed hedging ${mode}`);
  }
  for (let round = 0; round < options.rounds; round++) {
    for (const [mode, router] of Object.entries(routers)) {
      for (const collection of COLLECTIONS) {
        const key = `${collection} ${mode}`;
        for (let walk = 0; walk < WALKS[collection]; walk++)
          pages.set(key, [...(pages.get(key) ?? []), ...(await walkRouter(router.app, collection, PAGE))]);
      }
    }
    log(`round ${round + 1} of ${options.rounds}`);
  }

  /** The queries some pages sent, the hedges among them, and the hedges' share in percent. */
  const hedgeCost = (walked: readonly PageSample[]) => {
    const queries = walked.reduce((sum, page) => sum + page.queries, 0);
    const hedges = walked.reduce((sum, page) => sum + (page.hedges ?? 0), 0);
    return { queries, hedges, percent: queries > 0 ? (100 * hedges) / queries : 0 };
  };
  const figures = (collection: string, mode: string) => {
    const walked = pages.get(`${collection} ${mode}`)!;
    const ms = walked.map((page) => page.ms);
    const refilled = walked.filter((page) => page.roundTrips > 1).length;
    return { pages: walked.length, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), ...hedgeCost(walked), refilled };
  };
  console.log(`lognormal delay per DynamoDB call: median ${options.median} ms, σ ${options.sigma}\n`);
  console.log('| listing | hedging | pages | refilled | p50 ms | p99 ms | queries | hedges (share) |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const collection of COLLECTIONS) {
    for (const mode of ['off', 'on']) {
      const f = figures(collection, mode);
      const cells = [
        collection,
        mode,
        f.pages,
        `${((100 * f.refilled) / f.pages).toFixed(1)}%`,
        f.p50.toFixed(1),
        f.p99.toFixed(1),
        f.queries,
        `${f.hedges} (${f.percent.toFixed(1)}%)`,
      ];
      console.log(`| ${cells.join(' | ')} |`);
    }
  }
  const hashOn = figures('albums-hash', 'on');
  const ms = (key: string) => pages.get(key)!.map((page) => page.ms);
  const p99Ratio = (a: readonly number[], b: readonly number[]) => quantile(a, 0.99) / quantile(b, 0.99);
  const random = seededRandom(1);
  /** The ratio of two rows' p99s, and its 90% bootstrap interval: how far another run may put it. */
  const ratio = (a: string, b: string) => {
    const [first, second] = [ms(a), ms(b)];
    const [low, high] = bootstrapInterval(first, second, p99Ratio, random);
    return `${p99Ratio(first, second).toFixed(2)} (90% interval ${low.toFixed(2)}–${high.toFixed(2)})`;
  };
  // The reference is the one-shard page unhedged: about one call's p99 (plus the router's and the engine's
  // own time). Hedged alike, the one-shard page's tail shrinks too, and no 21-shard page can keep within
  // 1.5× of it under a p95 rule and a 5% budget (scripts/bench/sim-hedge-budget.ts): printed for scale.
  const reference = 'one-shard p99 (hedging off)';
  console.log(`\nhash p99 hedging on ÷ ${reference}: ${ratio('albums-hash on', 'albums-one off')} (target ≤ 1.5)`);
  console.log(`hash p99 hedging off ÷ ${reference}: ${ratio('albums-hash off', 'albums-one off')}`);
  console.log(`hash p99 ÷ one-shard p99, both hedging: ${ratio('albums-hash on', 'albums-one on')}`);
  console.log(
    `hash p99 hedging on ÷ off: ${ratio('albums-hash on', 'albums-hash off')} (below 1: hedging cuts the tail)`,
  );
  // The walked pages alone may pass 5% by what the warm-up saved (at most the purse, 50 tokens).
  const withWarmUp = hedgeCost([...warmUps.get('albums-hash on')!, ...pages.get('albums-hash on')!]);
  console.log(
    `extra queries from hedging: ${hashOn.percent.toFixed(1)}% of the hash pages', ` +
      `${withWarmUp.percent.toFixed(1)}% with the warm-up's (target ≤ 5%)`,
  );
} finally {
  await proxy.stop();
  await engine.stop();
}
