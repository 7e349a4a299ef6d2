import { sameStrategy } from '../../core/strategies';
import type { Service } from '../service';

/** A startup line per collection: the map it routes by, and where the config differs (as after a reshard). */
export async function describeMaps(service: Pick<Service, 'collections' | 'maps'>): Promise<string> {
  const lines = await Promise.all(
    service.collections.map(async (collection) => {
      const { pointer, read, target } = await service.maps.snapshot(collection, {});
      const shape = (strategy: { kind: string; shardCount: number }) =>
        `${strategy.kind}, ${strategy.shardCount} shards`;
      const migrating =
        pointer.phase === 'stable' || !target
          ? ''
          : `; ${pointer.phase} to v${pointer.target?.version} (${shape(target.map.strategy)})`;
      const config = sameStrategy(read.map.strategy, collection.initialStrategy)
        ? ''
        : ` — the config says ${shape(collection.initialStrategy)}`;
      if (collection.group) {
        // A group's shards are its own: the map's strategy is each group's default, the group map lists the others.
        const off = read.groups?.groups.size ?? 0;
        const each = `${read.map.strategy.shardCount} shard${read.map.strategy.shardCount === 1 ? '' : 's'}`;
        return `  ${collection.name}: grouped by ${collection.group.field}, ${each} a group; ${off} off the default`;
      }
      return `  ${collection.name}: v${pointer.read.version} (${shape(read.map.strategy)})${migrating}${config}`;
    }),
  );
  return lines.join('\n');
}
