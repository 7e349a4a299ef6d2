import type { CollectionSpec } from '../core/collection';
import type { MapPointer, MapRef } from '../core/shard-map';
import type { ShardStrategy } from '../core/strategies';
import { describe } from '../reshard/orchestrator';
import { describeCounts } from './reshard-progress';

/** `--status`: where the collection's shard maps are, as text or JSON. */
export async function formatStatus(
  collection: CollectionSpec,
  pointer: MapPointer,
  strategyOf: (version: number) => Promise<ShardStrategy>,
  json: boolean,
  now: number,
): Promise<string> {
  const versions = [...new Set([pointer.read, ...pointer.writes, ...(pointer.target ? [pointer.target] : [])])];
  const maps = new Map<number, ShardStrategy>();
  for (const ref of versions) maps.set(ref.version, await strategyOf(ref.version));
  const at = (ref: MapRef) => `v${ref.version} in ${collection.indexes[ref.slot].name}`;
  if (json) {
    const strategies = Object.fromEntries([...maps].map(([version, s]) => [version, s.config]));
    return `${JSON.stringify({ collection: collection.name, ...pointer, maps: strategies }, null, 2)}\n`;
  }
  const lines = [
    `${collection.name}: phase ${pointer.phase}`,
    `  reads:  ${at(pointer.read)} (${describe(maps.get(pointer.read.version)!)})`,
    `  writes: ${pointer.writes.map(at).join(', ')}`,
  ];
  if (pointer.target) lines.push(`  target: ${at(pointer.target)} (${describe(maps.get(pointer.target.version)!)})`);
  const { progress } = pointer;
  if (progress)
    lines.push(`  progress: ${describeCounts(progress)}; ${progress.segmentsDone}/${progress.segments} segments`);
  if (pointer.lease) {
    const left = Math.ceil((pointer.lease.until - now) / 1000);
    lines.push(
      left > 0
        ? `  running: lease held ${left} s more (last heartbeat ${Math.round((now - pointer.lease.beat) / 1000)} s ago)`
        : '  running: no (the last run stopped; run the same command to resume)',
    );
  } else if (pointer.phase !== 'stable') {
    lines.push('  running: no (run the same command to resume, or --abort / --rollback)');
  }
  return `${lines.join('\n')}\n`;
}
