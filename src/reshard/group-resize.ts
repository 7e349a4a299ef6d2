import type { RoutedCollection } from '../core/collection';
import { ShardlineError } from '../core/errors';
import { groupView } from '../core/group-view';
import { type GroupMap, isSettled, resize, settle, shardsOf } from '../core/group-map';
import { shardKey } from '../core/index-key';
import type { JsonObject } from '../core/item';
import type { DynamoStore } from '../store/dynamo-store';
import type { GroupMapStore } from '../store/map-store';
import { type CallContext, sleep } from '../store/retry';

/** What resizing a group runs against: the group maps, and (for a shrink) the index and conditional updates. */
export interface GroupResizeDeps extends Pick<DynamoStore, 'queryShard' | 'updateAttributes'> {
  readonly mapStore: GroupMapStore;
  /** The collection as its read map sees it (the index its groups' entries are in). */
  readonly collection: RoutedCollection;
  /** How long after a change every router has seen it (settleMsOf). */
  readonly settleMs: number;
  readonly log?: (line: string) => void;
}

/** What a resize did: the group map changes it made, and what moving items cost (a shrink only). */
export interface GroupResizeOutcome {
  readonly from: number;
  readonly to: number;
  readonly mapWrites: number;
  readonly queries: number;
  readonly moved: number;
  readonly writeUnits: number;
}

/**
 * Sets `group` to `shards` shards online, in two steps with a settle time between them (docs/groups.md,
 * growing and shrinking a group). A run stopped half way is finished by the next run for the same size.
 */
export async function resizeGroup(
  deps: GroupResizeDeps,
  group: string,
  shards: number,
  context: CallContext = {},
): Promise<GroupResizeOutcome> {
  const defaultShards = deps.collection.map.strategy.shardCount;
  let mapWrites = 0;
  const change = async (next: (map: GroupMap) => GroupMap): Promise<GroupMap> => {
    for (;;) {
      const map = await readMap(deps, context);
      const changed = next(map);
      if (changed === map) return map;
      mapWrites++;
      if (await deps.mapStore.replaceGroupMap(deps.collection, changed, context)) return changed;
    }
  };
  let map = await readMap(deps, context);
  const before = shardsOf(map, group, defaultShards);
  const from = before.phase === 'growing' ? before.writeShards : before.shards;
  const target = before.phase === 'stable' ? shards : before.phase === 'growing' ? before.shards : before.writeShards;
  if (target !== shards) {
    throw new ShardlineError(
      'conflict',
      `group ${JSON.stringify(group)} is ${before.phase} to ${target} shards; run that size again to finish it`,
    );
  }
  const noMoves = { queries: 0, moved: 0, writeUnits: 0 };
  if (before.phase === 'stable') {
    if (before.shards === shards) return { from, to: shards, mapWrites, ...noMoves };
    map = await change((m) => resize(m, group, shards, defaultShards, Date.now(), deps.settleMs));
    deps.log?.(`group ${JSON.stringify(group)}: ${from} → ${shards} shards; waiting for every router to see it`);
  }
  const entry = shardsOf(map, group, defaultShards);
  if (!isSettled(entry, Date.now())) await sleep(entry.changedAt + entry.settleMs - Date.now());
  const moves =
    entry.phase === 'shrinking' ? await moveOff(deps, group, entry.writeShards, entry.shards, context) : noMoves;
  await change((m) => settle(m, group, defaultShards, Date.now()));
  deps.log?.(`group ${JSON.stringify(group)}: stable on ${shards} shards`);
  return { from, to: shards, mapWrites, ...moves };
}

async function readMap(deps: GroupResizeDeps, context: CallContext): Promise<GroupMap> {
  const [map] = await deps.mapStore.readGroupMaps([deps.collection], context);
  if (!map) throw new ShardlineError('invalid_request', `collection "${deps.collection.name}" is not grouped`);
  return map;
}

/** Moves every item on shards `keep … shards-1` of the group onto a random one of `0 … keep-1`. */
async function moveOff(deps: GroupResizeDeps, group: string, keep: number, shards: number, context: CallContext) {
  const view = groupView(deps.collection, group);
  const { index } = view.map;
  const keys = view.primaryKey.map((key) => key.name);
  let queries = 0;
  let moved = 0;
  let writeUnits = 0;
  for (let shard = keep; shard < shards; shard++) {
    const from = shardKey(view.prefix, shard);
    let after: string | undefined;
    do {
      const page = await deps.queryShard(
        {
          table: view.table,
          index: index.name,
          shardKeyAttribute: index.shardKeyAttribute,
          indexKeyAttribute: index.indexKeyAttribute,
          shardKey: from,
          range: after === undefined ? {} : { lower: { key: after, inclusive: false } },
          direction: 'asc',
          limit: 500,
          attributes: keys,
        },
        context,
      );
      queries++;
      for (const item of page.items) {
        const to = shardKey(view.prefix, Math.floor(Math.random() * keep));
        const key: JsonObject = Object.fromEntries(keys.map((name) => [name, item[name]]));
        const outcome = await deps.updateAttributes(
          {
            table: view.table,
            key,
            set: { [index.shardKeyAttribute]: to },
            // A write in between (which put the item where it belongs now) wins.
            when: [{ kind: 'equals', attribute: index.shardKeyAttribute, value: from }],
          },
          context,
        );
        if (outcome.applied) moved++;
        writeUnits += outcome.writeUnits ?? 0;
      }
      after = page.resumeAfter;
    } while (after !== undefined);
  }
  return { queries, moved, writeUnits };
}
