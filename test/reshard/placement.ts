import { strategyFromConfig, type StrategyConfig } from '../../src/core/strategies';
import { indexSortKey, parseShardKey } from '../../src/core/index-key';
import { normalize } from '../../src/core/normalize';
import { scanTable } from '../support/table-scan';
import { itemKey, type Ledger } from './workload';

const SLOTS = [
  { index: 'GSI1', shard: 'gsi1pk', key: 'gsi1sk' },
  { index: 'GSI2', shard: 'gsi2pk', key: 'gsi2sk' },
] as const;

interface CollectionAnswer {
  strategy: string;
  shardCount: number;
  boundaries?: string[];
  prefix: string;
  map: { readIndex: string; phase: string };
}

/**
 * Reads the whole table through the store and checks every live item of the ledger's
 * collection: an entry in the index reads use, on a shard the current map gives its
 * value, under its exact index key; no entry in the other index; and no other item of
 * the collection (nothing deleted survives).
 */
export async function checkPlacement(
  env: NodeJS.ProcessEnv,
  base: string,
  ledger: Ledger,
): Promise<{ misplaced: string[]; missing: string[]; leftovers: string[] }> {
  const answer = (await (await fetch(`${base}/collections/${ledger.collection}`)).json()) as CollectionAnswer;
  const config: StrategyConfig =
    answer.strategy === 'range'
      ? { kind: 'range', boundaries: answer.boundaries! }
      : { kind: answer.strategy as 'hash' | 'random', shards: answer.shardCount };
  const strategy = strategyFromConfig(config);
  const read = SLOTS.find((slot) => slot.index === answer.map.readIndex)!;
  const other = SLOTS.find((slot) => slot !== read)!;
  const live = ledger.live();
  // The workload's keys: <collection>-s<n> (seeded) and <collection>-w<n> (written during).
  const ours = new RegExp(`^${ledger.collection.replace(/[-.]/g, '\\$&')}-[sw]\\d+$`);
  const misplaced: string[] = [];
  const leftovers: string[] = [];
  const seen = new Set<string>();
  for (const item of await scanTable(env.DYNAMODB_ENDPOINT!, env.TABLE_NAME!)) {
    const pk = item.pk as string;
    if (!ours.test(pk)) continue;
    const key = itemKey({ pk, sk: item.sk as string });
    const title = live.get(key);
    if (title === undefined) {
      leftovers.push(key);
      continue;
    }
    seen.add(key);
    const normalized = normalize(title, 'nfkd-lower');
    const shard = item[read.shard];
    const fits =
      typeof shard === 'string' &&
      parseShardKey(shard)?.prefix === answer.prefix &&
      strategy.shardsForValue(normalized).includes(parseShardKey(shard)!.shard) &&
      item[read.key] === indexSortKey(normalized, [pk, 'a']);
    if (!fits || item[other.shard] !== undefined || item[other.key] !== undefined) {
      misplaced.push(`${key}: ${JSON.stringify({ [read.shard]: shard, [other.shard]: item[other.shard] })}`);
    }
  }
  const missing = [...live.keys()].filter((key) => !seen.has(key));
  return { misplaced, missing, leftovers };
}
