import type { RoutedCollection } from '../../core/collection';
import { shardKey } from '../../core/index-key';
import { maxLower, minUpper, type KeyRange } from '../../core/key-range';
import type { ReadPlan } from '../../core/plan';
import type { ShardQuery } from '../../store/shard-query';

/** The query of `shard` for the plan's range, after `resumeAfter` (read order) when given. */
export function shardQuery(
  collection: RoutedCollection,
  plan: ReadPlan,
  shard: number,
  resumeAfter: string | undefined,
  limit: number,
  attributes?: readonly string[],
): ShardQuery {
  return {
    table: collection.table,
    index: collection.map.index.name,
    shardKeyAttribute: collection.map.index.shardKeyAttribute,
    indexKeyAttribute: collection.map.index.indexKeyAttribute,
    shardKey: shardKey(collection.prefix, shard),
    range: resumeRange(plan, resumeAfter),
    direction: plan.direction,
    limit,
    latencyGroup: collection.name,
    ...(attributes && { attributes }),
  };
}

/** The key a read starts after (or at): where its items begin, in read order. */
export function nearBound(plan: ReadPlan, resumeAfter: string | undefined): string | undefined {
  const range = resumeRange(plan, resumeAfter);
  return (plan.direction === 'asc' ? range.lower : range.upper)?.key;
}

/**
 * The range of a shard's next page: the plan's range, cut just past what the shard
 * already returned. A key condition rather than DynamoDB's ExclusiveStartKey, which
 * dynalite validates in UTF-16 order and refuses for emoji against U+E000–U+FFFF.
 */
function resumeRange(plan: ReadPlan, resumeAfter: string | undefined): KeyRange {
  if (resumeAfter === undefined) return plan.keyRange;
  const bound = { key: resumeAfter, inclusive: false };
  return plan.direction === 'asc'
    ? { ...plan.keyRange, lower: maxLower(plan.keyRange.lower, bound) }
    : { ...plan.keyRange, upper: minUpper(plan.keyRange.upper, bound) };
}
