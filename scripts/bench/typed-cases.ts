import { resolveConfig } from '../../src/config/config';
import { compareKeys } from '../../src/core/collation';
import { firstMapOf, type RoutedCollection, routedBy } from '../../src/core/collection';
import { indexSortKey } from '../../src/core/index-key';
import { orderedValueOf } from '../../src/core/order';
import { strategyFromConfig } from '../../src/core/strategies';
import { seededRandom } from '../../devtools/random';
import { randomTitle } from '../../devtools/titles';
import { mergeCases } from './merge-cases';
import type { MicroCase } from './micro-cases';

const SHARDS = 21;

/**
 * Typed keys against string keys, measured side by side: routing an item (read and
 * encode its ordered value, then bisect or hash) and merging shard pages, for the
 * collection `year desc, title` and for the same titles as one string field. Each
 * typed case names its string baseline, so the run prints the ratio (target ≤ 1.5×).
 */
export function typedCases(): MicroCase[] {
  const random = seededRandom(11);
  const items = Array.from({ length: 65_536 }, (_, i) => ({
    pk: `artist#${i % 997}`,
    sk: `album#${i}`,
    title: randomTitle(random),
    year: 1950 + Math.floor(random() * 76),
  }));
  const { plainRange, typedRange, yearRange, plainHash, typedHash } = collections(items);
  const fixed = () => 0.5;
  let i = 0;
  const route = (name: string, run: (batch: number) => number, baseline?: string): MicroCase => ({
    name,
    unit: 'items/s',
    batch: 100_000,
    ...(baseline && { baseline }),
    run() {
      return run(this.batch);
    },
  });
  // One loop per case, written out: closures made from one loop would share V8's type
  // feedback, and each case after the first would time the others' collections as well.
  const plainRangeLoop = (batch: number) => {
    let sum = 0;
    for (let n = 0; n < batch; n++)
      sum += plainRange.map.strategy.shardForWrite(orderedValueOf(plainRange, items[i++ & 0xffff]!), fixed);
    return sum;
  };
  const typedRangeLoop = (batch: number) => {
    let sum = 0;
    for (let n = 0; n < batch; n++)
      sum += typedRange.map.strategy.shardForWrite(orderedValueOf(typedRange, items[i++ & 0xffff]!), fixed);
    return sum;
  };
  const yearRangeLoop = (batch: number) => {
    let sum = 0;
    for (let n = 0; n < batch; n++)
      sum += yearRange.map.strategy.shardForWrite(orderedValueOf(yearRange, items[i++ & 0xffff]!), fixed);
    return sum;
  };
  const plainHashLoop = (batch: number) => {
    let sum = 0;
    for (let n = 0; n < batch; n++)
      sum += plainHash.map.strategy.shardForWrite(orderedValueOf(plainHash, items[i++ & 0xffff]!), fixed);
    return sum;
  };
  const typedHashLoop = (batch: number) => {
    let sum = 0;
    for (let n = 0; n < batch; n++)
      sum += typedHash.map.strategy.shardForWrite(orderedValueOf(typedHash, items[i++ & 0xffff]!), fixed);
    return sum;
  };
  const keys = (collection: RoutedCollection) =>
    JSON.parse(
      JSON.stringify(items.map((item) => indexSortKey(orderedValueOf(collection, item), [item.pk, item.sk]))),
    ) as string[];
  const stringKeys = keys(plainRange);
  const typedKeys = keys(typedRange);
  const stringMerge = mergeCases(stringKeys.slice(0, 4096), stringKeys, ', string keys');
  const typedMerge = mergeCases(typedKeys.slice(0, 4096), typedKeys, ', typed keys (year desc, title)');
  return [
    route('route an item, string title, range', plainRangeLoop),
    route('route an item, typed (year desc, title), range', typedRangeLoop, 'route an item, string title, range'),
    route('route an item, typed (year desc), range', yearRangeLoop, 'route an item, string title, range'),
    route('route an item, string title, hash', plainHashLoop),
    route('route an item, typed (year desc, title), hash', typedHashLoop, 'route an item, string title, hash'),
    ...stringMerge.slice(0, 2),
    ...typedMerge.slice(0, 2).map((typed, n) => ({ ...typed, baseline: stringMerge[n]!.name })),
  ];
}

/** The four collections; range boundaries cut at quantiles of each one's ordered values, as a reshard stores them. */
function collections(
  items: readonly Record<string, unknown>[],
): Record<'plainRange' | 'typedRange' | 'yearRange' | 'plainHash' | 'typedHash', RoutedCollection> {
  const hashed = resolveConfig({
    collections: {
      plain: { field: 'title', strategy: { kind: 'hash', shards: SHARDS } },
      typed: {
        order: [{ field: 'year', type: 'number', direction: 'desc' }, { field: 'title' }],
        strategy: { kind: 'hash', shards: SHARDS },
      },
      year: {
        order: [{ field: 'year', type: 'number', direction: 'desc' }],
        strategy: { kind: 'hash', shards: SHARDS },
      },
    },
  }).map(firstMapOf);
  const ranged = hashed.map((collection) => {
    const values = items.map((item) => orderedValueOf(collection, item)).sort(compareKeys);
    const boundaries = Array.from({ length: SHARDS }, (_, s) =>
      s === 0 ? '' : values[Math.floor((s * values.length) / SHARDS)]!,
    );
    return routedBy(collection, 1, strategyFromConfig({ kind: 'range', boundaries }), 0);
  });
  return {
    plainRange: ranged[0]!,
    typedRange: ranged[1]!,
    yearRange: ranged[2]!,
    plainHash: hashed[0]!,
    typedHash: hashed[1]!,
  };
}
