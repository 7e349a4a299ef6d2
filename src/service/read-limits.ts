/** DynamoDB Query pages stop at 1 MB anyway; asking for more items than a page can use is waste. */
export const MAX_QUERY_LIMIT = 1001;

/**
 * How many items to ask one shard for. A group of `shards` shards is expected to
 * share the `remaining` items evenly, so a first query asks for that share plus a
 * margin of about one standard deviation (the items of a shard in a page are
 * roughly binomial), not for a whole page — asking every shard for a full page
 * reads N times what is returned. A shard that runs dry and is needed again asks
 * for twice its previous limit, capped by what the page can still use.
 */
export function shardQueryLimit(remaining: number, shards: number, previousLimit: number | undefined): number {
  if (shards <= 1) return Math.min(remaining, MAX_QUERY_LIMIT);
  const share = remaining / shards;
  const first = Math.ceil(share + Math.sqrt(share)) + 1;
  const limit = previousLimit === undefined ? first : Math.max(first, previousLimit * 2);
  return Math.max(1, Math.min(limit, remaining, MAX_QUERY_LIMIT));
}
