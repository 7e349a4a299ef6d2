import type { CollectionSpec, RoutedCollection } from '../core/collection';
import { resizeGroup } from '../reshard/group-resize';
import { groupResizeDeps } from '../reshard/run-reshard';
import type { DecisionLog, KeptDecision } from '../store/decision-log';
import type { GroupChange } from './decide-groups';
import type { AutopilotTable, StepRecord } from './step';

/** When the autopilot last resized each group (the cooldown of a group shrunk back out of the group map). */
export function lastResizes(kept: readonly KeptDecision[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const entry of kept) {
    if (entry.dryRun) continue;
    for (const change of entry.groups ?? []) {
      if (change.action === 'hold') continue;
      last.set(change.group, Math.max(last.get(change.group) ?? 0, Date.parse(entry.at)));
    }
  }
  return last;
}

/**
 * Runs the step's group resizes as `npm run reshard -- --group` does, all at once (their group map writes
 * retry on each other's), then keeps the decision with what each did; a later step resumes a killed one's.
 */
export async function resizeGroups(
  table: AutopilotTable,
  collection: CollectionSpec,
  read: RoutedCollection,
  record: StepRecord,
  log: DecisionLog,
  say: (line: string) => void,
): Promise<StepRecord> {
  const deps = groupResizeDeps(table, read, say);
  const groups = await Promise.all(
    (record.groups ?? []).map(async (change): Promise<GroupChange> => {
      if (change.action === 'hold') return change;
      const started = Date.now();
      try {
        const outcome = await resizeGroup(deps, change.group, change.to);
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        const moved = outcome.moved > 0 ? `, ${outcome.moved} items moved` : '';
        return { ...change, done: true, outcome: `stable on ${outcome.to} shards in ${seconds} s${moved}` };
      } catch (error) {
        return { ...change, done: false, outcome: `not finished: ${(error as Error).message}` };
      }
    }),
  );
  const done: StepRecord = { ...record, groups };
  await log.append(collection, { ...done });
  return done;
}
