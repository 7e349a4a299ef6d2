import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../devtools/random';
import { compareKeys } from '../../../src/core/collation';
import {
  strategyDefinition,
  strategyFromConfig,
  type ShardStrategy,
  type ValueBound,
  type ValueRange,
} from '../../../src/core/strategies';

export interface ContractOptions {
  /** Values worth trying beyond the shared ones (boundaries, heavy hitters); their neighbours are tried too. */
  readonly values?: readonly string[];
  /** Shards are in value order, so the planned groups list shards ascending (range). */
  readonly orderedShards?: boolean;
  /** Configs of this strategy's kind that `strategyFromConfig` must refuse. */
  readonly invalidConfigs?: readonly unknown[];
}

/** Values every strategy is tried on: ASCII, a heavy title, BMP private use vs astral (UTF-16 disagrees). */
const SHARED_VALUES = [
  '',
  'a',
  'b',
  'ba',
  'greatest hit',
  'greatest hits',
  'greatest hits!',
  'lo',
  'm',
  'x',
  'xa',
  'zz',
  '\uE000',
  '\uFFFD',
  '\u{1F3B8}',
  '\u{1F600}',
  '\u{1F601}',
];
const PIECES = [
  'a',
  'b',
  'c',
  'g',
  'm',
  'st',
  'x',
  'z',
  ' ',
  '!',
  'é',
  '\u0001',
  '\uE000',
  '\uFFFD',
  '\u{1F3B8}',
  '\u{1F600}',
];
const WRITES_PER_VALUE = 50;

/**
 * The contract every registered strategy holds (Hono's common.case pattern): run it
 * from a strategy's test file with a factory for an instance. Checks that writes land
 * where reads look, that range plans cover, order and never repeat shards, and that
 * the strategy's JSON config rebuilds an equal strategy through the registry.
 */
export function strategyContract(name: string, makeStrategy: () => ShardStrategy, options: ContractOptions = {}): void {
  describe(`strategy contract: ${name}`, () => {
    const strategy = makeStrategy();
    const values = sampleValues(options.values ?? []);
    const ranges = sampleRanges(values, options.values ?? []);
    const isShard = (shard: number) => Number.isInteger(shard) && shard >= 0 && shard < strategy.shardCount;
    const readShards = new Map(values.map((value) => [value, strategy.shardsForValue(value)]));

    it('is registered under its kind, and its config passes the registered schema', () => {
      const definition = strategyDefinition(strategy.kind);
      expect(definition, `"${strategy.kind}" registered`).toBeDefined();
      expect(definition!.description.length).toBeGreaterThan(0);
      expect(strategy.config.kind).toBe(strategy.kind);
      expect(definition!.configSchema.safeParse(strategy.config).success).toBe(true);
      expect(Number.isInteger(strategy.shardCount) && strategy.shardCount >= 1).toBe(true);
    });

    // Violations are collected and asserted once: an expect per check would make this suite slow.
    it('writes every value to a shard in range that reads of that value visit', () => {
      const random = seededRandom(9);
      const pinned = [0, 0.5, 1 - 2 ** -53];
      const problems: string[] = [];
      for (const value of values) {
        const readable = readShards.get(value)!;
        for (const draw of [...pinned, ...Array.from({ length: WRITES_PER_VALUE }, random)]) {
          const shard = strategy.shardForWrite(value, () => draw);
          if (!isShard(shard) || !readable.includes(shard)) {
            problems.push(`${JSON.stringify(value)} written to ${shard}, read from ${readable}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it('lists the shards of one value ascending, without repeats', () => {
      const problems = [...readShards]
        .filter(([, shards]) => shards.length === 0 || !isAscending(shards) || !shards.every(isShard))
        .map(([value, shards]) => `${JSON.stringify(value)}: ${shards}`);
      expect(problems).toEqual([]);
    });

    it('plans ascending, disjoint groups that cover every shard a value in the range can be written to', () => {
      const problems: string[] = [];
      for (const range of ranges) {
        const where = describeRange(range);
        const groups = strategy.groupsForRange(range);
        const planned = groups.flat();
        if (new Set(planned).size !== planned.length) problems.push(`${where}: a shard twice in ${planned}`);
        if (groups.some((group) => group.length === 0 || !isAscending(group))) {
          problems.push(`${where}: an empty or unsorted group in ${JSON.stringify(groups)}`);
        }
        if (options.orderedShards && !isAscending(planned)) problems.push(`${where}: shards out of order ${planned}`);
        for (const value of values.filter((v) => inValueRange(v, range))) {
          const missing = readShards.get(value)!.filter((shard) => !planned.includes(shard));
          if (missing.length > 0) problems.push(`${where}: ${JSON.stringify(value)} may be on ${missing}, not planned`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('orders groups by value: concatenating the merged groups lists values ascending', () => {
      const problems: string[] = [];
      for (const range of ranges) {
        const groups = strategy.groupsForRange(range);
        const groupOf = new Map(groups.flatMap((group, index) => group.map((shard) => [shard, index] as const)));
        let highest = -1;
        for (const value of values.filter((v) => inValueRange(v, range))) {
          const indexes = readShards.get(value)!.map((shard) => groupOf.get(shard) ?? -1);
          const where = `${describeRange(range)}: ${JSON.stringify(value)} in groups ${indexes}`;
          // One value's items are ordered by tiebreaker: they must all be merged in one group.
          if (Math.min(...indexes) !== Math.max(...indexes)) problems.push(`${where}, not one`);
          else if (indexes[0]! < highest) problems.push(`${where}, after a smaller value in group ${highest}`);
          else highest = indexes[0]!;
        }
      }
      expect(problems).toEqual([]);
    });

    it('rebuilds an equal strategy from its config after a JSON round trip', () => {
      const json: unknown = JSON.parse(JSON.stringify(strategy.config));
      expect(json, 'the config is plain JSON').toEqual(strategy.config);
      const copy = strategyFromConfig(json);
      expect(copy.kind).toBe(strategy.kind);
      expect(copy.config).toEqual(strategy.config);
      expect(copy.shardCount).toBe(strategy.shardCount);
      const answers = (s: ShardStrategy) => ({
        reads: values.map((value) => s.shardsForValue(value)),
        writes: values.map((value) => [0, 0.3, 0.7, 1 - 2 ** -53].map((draw) => s.shardForWrite(value, () => draw))),
        plans: ranges.map((range) => s.groupsForRange(range)),
      });
      expect(answers(copy)).toEqual(answers(strategy));
    });

    it('refuses configs it cannot build with an Error naming the problem', () => {
      const foreign = [null, [], 'hash', {}, { kind: 42 }, { ...strategy.config, kind: 'no-such-strategy' }];
      for (const config of foreign) {
        expect(() => strategyFromConfig(config), JSON.stringify(config)).toThrow(/strategy config: /);
      }
      for (const config of options.invalidConfigs ?? []) {
        expect(() => strategyFromConfig(config), JSON.stringify(config)).toThrow(`strategy "${strategy.kind}": `);
      }
    });
  });
}

/** Shared, extra and generated values with neighbours of the extra ones, sorted by code point and distinct. */
function sampleValues(extra: readonly string[]): string[] {
  const random = seededRandom(17);
  const generated = Array.from({ length: 150 }, () =>
    Array.from({ length: 1 + Math.floor(random() * 4) }, () => PIECES[Math.floor(random() * PIECES.length)]!).join(''),
  );
  const neighbours = extra.flatMap((value) => [
    value,
    `${value}\u0001`,
    `${value}a`,
    Array.from(value).slice(0, -1).join(''),
  ]);
  return [...new Set([...SHARED_VALUES, ...neighbours, ...generated])].sort(compareKeys);
}

/**
 * Unbounded, one-sided and two-sided ranges ending on the extra values and a spread of
 * the rest, every inclusiveness.
 */
function sampleRanges(values: readonly string[], extra: readonly string[]): ValueRange[] {
  const step = Math.max(1, Math.floor(values.length / 12));
  const ends = [...new Set([...extra, ...values.filter((_, i) => i % step === 0)])];
  const bounds = ends.flatMap((value): ValueBound[] => [
    { value, inclusive: true },
    { value, inclusive: false },
  ]);
  const ranges: ValueRange[] = [{}];
  for (const bound of bounds) ranges.push({ lower: bound }, { upper: bound });
  for (const lower of bounds) {
    for (const upper of bounds) {
      if (compareKeys(lower.value, upper.value) <= 0) ranges.push({ lower, upper });
    }
  }
  return ranges;
}

function inValueRange(value: string, range: ValueRange): boolean {
  const { lower, upper } = range;
  if (lower && (compareKeys(value, lower.value) < 0 || (!lower.inclusive && value === lower.value))) return false;
  if (upper && (compareKeys(value, upper.value) > 0 || (!upper.inclusive && value === upper.value))) return false;
  return true;
}

/** Strictly ascending: sorted and without repeats. */
function isAscending(shards: readonly number[]): boolean {
  return shards.every((shard, i) => i === 0 || shard > shards[i - 1]!);
}

function describeRange(range: ValueRange): string {
  const side = (bound: ValueBound | undefined, open: string, closed: string) =>
    bound ? `${bound.inclusive ? closed : open}${JSON.stringify(bound.value)}` : '∞';
  return `${side(range.lower, '(', '[')} .. ${side(range.upper, ')', ']')}`;
}
