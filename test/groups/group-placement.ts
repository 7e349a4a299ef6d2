import { waitUntilReady } from '../../devtools/wait-until';
import { scanTable } from '../support/table-scan';
import type { Walk } from './order-ledger';

/** Every order's shard key (`gsi1pk`) by its pk, read from the table behind the service. */
export async function shardKeysOfOrders(endpoint: string, table: string): Promise<Map<string, string>> {
  const orders = (await scanTable(endpoint, table)).filter((item) => item.sk === 'order');
  return new Map(orders.map((item) => [item.pk as string, item.gsi1pk as string]));
}

/** Resolves once every router routes `group` stable on `shards` shards (within a few map TTLs of the change). */
export async function untilRoutersSee(bases: readonly string[], group: string, shards: number): Promise<void> {
  const seen = async (base: string) => {
    const answer = await fetch(`${base}/collections/orders/groups/${encodeURIComponent(group)}`);
    const body = (await answer.json()) as { phase: string; shards: number; writeShards: number };
    return body.phase === 'stable' && body.shards === shards && body.writeShards === shards;
  };
  await waitUntilReady(async () => (await Promise.all(bases.map(seen))).every(Boolean), {
    timeoutMs: 10_000,
    intervalMs: 50,
    timedOut: () => `the routers did not route ${group} stable on ${shards} shards within 10 s`,
  });
}

/** Resolves once `count` walks of `group` that started at or after `since` have ended. */
export async function untilWalked(walks: readonly Walk[], group: string, since: number, count: number) {
  await waitUntilReady(() => walks.filter((w) => w.customerId === group && w.start >= since).length >= count, {
    timeoutMs: 60_000,
    intervalMs: 50,
    timedOut: () => `fewer than ${count} walks of ${group} ended within 60 s`,
  });
}

/** Orders per shard key, and how far the fullest and the emptiest are from a fair share of `shards`. */
export function spread(keys: readonly string[], shards: number) {
  const perShard = new Map<string, number>();
  for (const key of keys) perShard.set(key, (perShard.get(key) ?? 0) + 1);
  const fair = keys.length / shards;
  const counts = [...perShard.values()];
  return {
    perShard,
    overFair: Math.max(...counts) / fair,
    underFair: fair / Math.min(...counts),
  };
}
