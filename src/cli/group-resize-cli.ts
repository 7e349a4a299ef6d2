import type { CollectionSpec } from '../core/collection';
import { refused, ShardlineError } from '../core/errors';
import { groupValueFromPath } from '../core/group-key';
import { groupShards } from '../core/group-view';
import { resizeGroup } from '../reshard/group-resize';
import { groupResizeDeps } from '../reshard/run-reshard';
import type { OpenEnvironment } from '../runtime/open-environment';
import { refusing } from './command-line';
import type { ReshardIO } from './reshard-cli';

/** `npm run reshard -- --collection C --group G --shards N`: one group to N shards, online (docs/groups.md). */
export async function resizeGroupCli(
  action: { readonly group: string; readonly shards: number },
  collection: CollectionSpec,
  opened: OpenEnvironment,
  io: ReshardIO,
  yes: boolean,
): Promise<number> {
  if (!collection.group) throw refused(`"${collection.name}" is not grouped: --group needs a grouped collection`);
  const { group: spec, prefix } = collection;
  const group = refusing(() => groupValueFromPath(spec, prefix, action.group));
  const { read } = await opened.maps.current(collection, {});
  const current = groupShards(read, group);
  const resize = `group ${JSON.stringify(group)} ${current.shards} → ${action.shards} shards`;
  const question = `${collection.name}: ${resize}. Start?`;
  if (current.phase === 'stable' && current.shards !== action.shards && !yes && !(await confirmed(io, question))) {
    return 3;
  }
  const started = Date.now();
  try {
    const deps = groupResizeDeps(opened, read, (line) => io.stderr(`reshard: ${line}\n`));
    const outcome = await resizeGroup(deps, group, action.shards);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    io.stdout(
      `${collection.name}: group ${JSON.stringify(group)} stable on ${outcome.to} shards (from ${outcome.from}); ` +
        `${outcome.moved} items moved, ${outcome.queries} queries, ${outcome.writeUnits.toFixed(0)} write units, ` +
        `${outcome.mapWrites} group map writes in ${seconds} s\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ShardlineError && (error.code === 'conflict' || error.code === 'invalid_request'))
      throw refused(error.message);
    throw error;
  }
}

/** The operator's yes to `question` (a refusal where nobody can answer: then --yes is needed). */
export async function confirmed(io: ReshardIO, question: string): Promise<boolean> {
  if (!io.confirm) throw refused(`${question} — add --yes to start without a prompt`);
  if (await io.confirm(question)) return true;
  io.stderr('reshard: not started\n');
  return false;
}
