import type { AttributeValue, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { compareKeys, utf8Length } from '../core/collation';
import { MAX_SORT_KEY_BYTES, nextKey } from '../core/index-key';
import { aboveLower, belowUpper, isEmptyRange, type KeyRange } from '../core/key-range';
import type { JsonObject } from '../core/item';
import type { OrderDirection } from '../core/order-encoding';

/** One query against one shard of an index, between two index sort keys. */
export interface ShardQuery {
  readonly table: string;
  readonly index: string;
  readonly shardKeyAttribute: string;
  readonly indexKeyAttribute: string;
  readonly shardKey: string;
  readonly range: KeyRange;
  readonly direction: OrderDirection;
  readonly limit: number;
  /** Attributes to return (besides the index keys, always read: merges and cursors need them); all when unset. */
  readonly attributes?: readonly string[];
  /** Queries whose latencies are alike (one collection's): the hedge delay is their recent p95. */
  readonly latencyGroup?: string;
}

/**
 * The Query in wire form (`{ S: … }`, sent as it is), or undefined when the range is empty. A
 * key condition holds one comparison on the sort key: one side, or `BETWEEN` (inclusive) for
 * two. An exclusive lower bound k becomes `nextKey(k)` (the next string up, exactly), or `> k`
 * alone when that would pass DynamoDB's sort key limit; an exclusive upper bound stays inclusive
 * and the store drops the item equal to it. dynalite refuses a BETWEEN whose bounds disagree in
 * UTF-16 order (U+E000–U+FFFF against emoji): then only the side the read starts from goes in, items
 * past the other side come last, and the store stops the shard there. It re-checks every item (`inRange`).
 */
export function buildShardQuery(query: ShardQuery): QueryCommandInput | undefined {
  if (isEmptyRange(query.range)) return undefined;
  const names: Record<string, string> = { '#shard': query.shardKeyAttribute };
  const values: Record<string, AttributeValue> = { ':shard': { S: query.shardKey } };
  let condition = '#shard = :shard';
  const { lower, upper } = query.range;
  // nextKey adds a byte: a key already at DynamoDB's sort key limit (a cursor past an item whose index key
  // fills it) is sent as it is, compared with `>`, which BETWEEN cannot say.
  const strict = lower !== undefined && !lower.inclusive && utf8Length(lower.key) >= MAX_SORT_KEY_BYTES;
  const lowerKey = lower && (lower.inclusive || strict ? lower.key : nextKey(lower.key));
  const bothSides = !strict && lowerKey !== undefined && upper !== undefined && agreeInUtf16(lowerKey, upper.key);

  const useLower = lowerKey !== undefined && (bothSides || upper === undefined || query.direction === 'asc');
  const useUpper = upper !== undefined && (bothSides || !useLower);
  if (useLower || useUpper) names['#key'] = query.indexKeyAttribute;
  if (bothSides) {
    values[':lower'] = { S: lowerKey };
    values[':upper'] = { S: upper.key };
    condition += ' AND #key BETWEEN :lower AND :upper';
  } else if (useLower) {
    values[':lower'] = { S: lowerKey };
    condition += strict ? ' AND #key > :lower' : ' AND #key >= :lower';
  } else if (useUpper) {
    values[':upper'] = { S: upper.key };
    condition += upper.inclusive ? ' AND #key <= :upper' : ' AND #key < :upper';
  }

  const { shardKeyAttribute, indexKeyAttribute, attributes } = query;
  const projected = attributes && [...new Set([shardKeyAttribute, indexKeyAttribute, ...attributes])];
  for (const [i, attribute] of (projected ?? []).entries()) names[`#p${i}`] = attribute;
  const projection = projected?.map((_, i) => `#p${i}`).join(', ');
  return {
    TableName: query.table,
    IndexName: query.index,
    ...(projection && { ProjectionExpression: projection }),
    KeyConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: query.direction === 'asc',
    // A descending BETWEEN starts at its upper bound; an exclusive one is read and
    // dropped, so it gets a place of its own or a page could hold nothing else.
    Limit: bothSides && query.direction === 'desc' && !upper.inclusive ? query.limit + 1 : query.limit,
    ReturnConsumedCapacity: 'TOTAL',
  };
}

/** True when `lower <= upper` holds in UTF-16 order as well as in code point order. */
function agreeInUtf16(lower: string, upper: string): boolean {
  return lower <= upper && compareKeys(lower, upper) <= 0;
}

/** Whether the read went past the far end of the range (where the key condition holds only the near side). */
export function passedFarEnd(read: JsonObject[], query: ShardQuery): boolean {
  const last = read[read.length - 1]?.[query.indexKeyAttribute];
  if (typeof last !== 'string') return false;
  return query.direction === 'asc' ? !belowUpper(last, query.range.upper) : !aboveLower(last, query.range.lower);
}
