/**
 * `tsx scripts/bench/sim-hedge-budget.ts [--pages N] [--shards N] [--refilled SHARE] [--early]`: the
 * hedge budget's purse, simulated over the real `HedgePolicy`. Each page sends one query to
 * every shard, each answering after a lognormal delay (median 8 ms, σ 0.8, drawn
 * independently: shards on partitions of their own); a query still out at the policy's delay
 * is hedged if a token is left, and answers at the earlier of its two draws. With
 * `--refilled`, that share of pages waits for a second wave of three shards after the first;
 * with `--early` too, those three go out once three in four of the first wave have answered
 * (the top-ups tried and left out, docs/performance.md), and the page waits for whichever ends last.
 * Prints, per purse size, the share of queries hedged, the share of slow queries (past
 * the p95) that went unhedged, and the page p99 against two references: one query's p99,
 * unhedged (what `npm run bench:hedge` divides by: its one-shard page with hedging off), and
 * the p99 of one-shard pages hedged by the same policy, whose tail hedging cuts too.
 * No engine, no noise, a fixed seed: the tool for sizing the purse.
 */
import { seededRandom } from '../../devtools/random';
import { quantile } from '../../devtools/stats';
import { numberArg, parseCommandLine } from '../../src/cli/command-line';
import { HedgePolicy } from '../../src/core/hedge-policy';

const USAGE = `Usage: tsx scripts/bench/sim-hedge-budget.ts [--pages N] [--shards N] [--refilled SHARE] [--early]

  --pages N          pages per purse size (default 20000)
  --shards N         queries in a page's first wave (default 21)
  --refilled SHARE   share of pages that wait for a second wave of 3 (default 0)
  --early            that wave goes out once three in four of the first have answered
  --help`;

const options = parseCommandLine(
  'sim-hedge-budget',
  USAGE,
  {
    options: {
      pages: { type: 'string', default: '20000' },
      shards: { type: 'string', default: '21' },
      refilled: { type: 'string', default: '0' },
      early: { type: 'boolean', default: false },
    },
  },
  ({ values }) => ({
    pages: numberArg('pages', values.pages, { min: 100, integer: true }),
    shards: numberArg('shards', values.shards, { min: 1, integer: true }),
    refilled: numberArg('refilled', values.refilled, { min: 0, max: 1 }),
    early: values.early,
  }),
);

const MEDIAN_MS = 8;
const SIGMA = 0.8;
/** One call's delay: lognormal around the median (Box–Muller), from the seeded source. */
const delayOf = (random: () => number) =>
  MEDIAN_MS * Math.exp(SIGMA * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));

const single = seededRandom(1);
const oneQueryP99 = quantile(
  Array.from({ length: 200_000 }, () => delayOf(single)),
  0.99,
);
const p95 = MEDIAN_MS * Math.exp(SIGMA * 1.645);

console.log(
  `${options.shards} shards a page, ${options.pages} pages, ${options.refilled * 100}% refilled` +
    (options.early ? ', early' : ''),
);
console.log('| purse | hedged | slow queries unhedged | page p99 ÷ one query p99 | ÷ hedged one-shard page p99 |');
console.log('| ---: | ---: | ---: | ---: | ---: |');
/** One router's queries under one purse: each one's time to the answer taken, as the store's hedged send takes it. */
function hedgedQueries(burst: number, random: () => number) {
  const policy = new HedgePolicy({ ratio: 0.05, burst, window: 256, minSamples: 32 });
  const counts = { queries: 0, hedges: 0, slow: 0, slowUnhedged: 0 };
  const query = (): number => {
    counts.queries++;
    const delay = policy.delayFor('sim');
    let ms = delayOf(random);
    if (ms > p95) counts.slow++;
    if (delay !== undefined && ms > delay) {
      if (policy.trySpend('sim')) {
        counts.hedges++;
        ms = Math.min(ms, delay + delayOf(random));
      } else if (ms > p95) counts.slowUnhedged++;
    }
    policy.answered('sim', ms);
    return ms;
  };
  return { query, counts };
}

for (const burst of [5, 10, 20, 50, 100]) {
  const random = seededRandom(2);
  const { query, counts } = hedgedQueries(burst, random);
  // The reference router walks one-shard pages: one query each, hedged alike.
  const oneShard = hedgedQueries(burst, seededRandom(3));
  const oneShardP99 = quantile(Array.from({ length: options.pages }, oneShard.query), 0.99);
  /** A wave's answer times, in order. */
  const wave = (size: number) => Array.from({ length: size }, query).sort((a, b) => a - b);
  const pages = Array.from({ length: options.pages }, () => {
    const first = wave(options.shards);
    const last = first[first.length - 1]!;
    if (random() >= options.refilled) return last;
    const refill = wave(3)[2]!;
    return options.early ? Math.max(last, first[Math.ceil(0.75 * first.length) - 1]! + refill) : last + refill;
  });
  const pageP99 = quantile(pages, 0.99);
  const cells = [
    burst,
    `${((100 * counts.hedges) / counts.queries).toFixed(1)}%`,
    `${((100 * counts.slowUnhedged) / counts.slow).toFixed(1)}%`,
    (pageP99 / oneQueryP99).toFixed(2),
    (pageP99 / oneShardP99).toFixed(2),
  ];
  console.log(`| ${cells.join(' | ')} |`);
}
