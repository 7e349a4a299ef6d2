import type { AutopilotConfig } from '../core/collection';
import { type GroupMap, type GroupShards, shardsOf } from '../core/group-map';
import type { FleetLoad } from '../load/fleet-load';
import { groupRate } from '../load/group-sketch';
import { PARTITION_WCU } from '../load/load-record';
import type { Decision, StepInputs } from './decide';

/** What one step knows of a grouped collection: its groups' load over the window, and its group map. */
export interface GroupStepInputs extends Pick<StepInputs, 'window' | 'minutes' | 'now' | 'minuteMs'> {
  readonly groups: GroupMap;
  /** The collection's default: a group not in the map has this many shards, and never fewer. */
  readonly defaultShards: number;
  /** When the autopilot last resized each group (a group back on its default has left the map). */
  readonly lastResizedAt: ReadonlyMap<string, number>;
  /** How long a change takes to settle: one unsettled twice that long has lost the run that made it. */
  readonly settleMs: number;
}

/** One group the step resizes (or finishes resizing), or a hot one it holds, and why (a type: the log takes it). */
export type GroupChange = {
  readonly group: string;
  readonly action: 'grow' | 'shrink' | 'resume' | 'hold';
  /** Its write units a second over the window, at most. */
  readonly writeUnitsPerSecond: number;
  /** Its shards before, and after the change. */
  readonly shards: number;
  readonly to: number;
  readonly why: string;
  /** Once run: finished or not, and what it did in one line. */
  readonly done?: boolean;
  readonly outcome?: string;
};

/** Resizes one step starts at most (the rest wait for the next step): each is a few group map writes. */
export const MAX_GROUP_RESIZES = 8;
/** A grown group shrinks when each shard it would keep stays under this part of the bar (hysteresis). */
const COLD_FRACTION = 1 / 4;

/**
 * One step's choice for a grouped collection (docs/autopilot.md, the group rule), pure: hot groups
 * grow, cold grown ones shrink, cooling ones are left alone, a change whose run died is finished.
 */
export function decideGroups(inputs: GroupStepInputs, config: AutopilotConfig): Decision {
  const { window, groups: map, defaultShards, now } = inputs;
  const bar = config.maxPartitionShare * PARTITION_WCU;
  const hot = window.groups?.writeUnits;
  const cooling = (group: string, entry: GroupShards) => {
    const last = Math.max(map.groups.has(group) ? entry.changedAt : 0, inputs.lastResizedAt.get(group) ?? 0);
    return last > 0 && now - last < config.cooldownMinutes * inputs.minuteMs;
  };
  const resizes: GroupChange[] = [];
  const holds: GroupChange[] = [];
  const add = (into: GroupChange[], change: Omit<GroupChange, 'writeUnitsPerSecond'>) => {
    const { group, action, ...rest } = change;
    into.push({ group, action, writeUnitsPerSecond: round(atMost(window, group)), ...rest });
  };

  // A change whose run died (a killed step, a killed CLI) is finished first: the group is half way.
  for (const [group, entry] of map.groups) {
    if (entry.phase === 'stable' || now < entry.changedAt + 2 * inputs.settleMs) continue;
    const [from, to] =
      entry.phase === 'growing' ? [entry.writeShards, entry.shards] : [entry.shards, entry.writeShards];
    const since = new Date(entry.changedAt).toISOString();
    const why = `${entry.phase} since ${since}: the run that began it ended first`;
    add(resizes, { group, action: 'resume', shards: from, to, why });
  }
  if (window.records === 0) {
    const why = 'no load records in the window: do the routers run with SHARDLINE_LOAD_RECORDS on?';
    return decision(resizes, holds, why, inputs, config);
  }
  // Hot: even its lower bound over the bar for every shard it has (the sketch lists the hottest first).
  for (const counter of hot?.keys ?? []) {
    const entry = shardsOf(map, counter.key, defaultShards);
    const atLeast = (counter.count - counter.error) / window.windowSeconds;
    if (entry.phase !== 'stable' || atLeast <= bar * entry.shards) continue;
    const heat = `hot: at least ${round(atLeast)} write units/s, over ${round(bar)} a shard on ${entry.shards}`;
    const held =
      entry.shards >= config.maxShards
        ? 'at the most shards allowed'
        : cooling(counter.key, entry) && `cooling down after its last resize (${config.cooldownMinutes} min)`;
    const change = { group: counter.key, shards: entry.shards };
    if (held) add(holds, { ...change, action: 'hold', to: entry.shards, why: `${heat}; ${held}` });
    else add(resizes, { ...change, action: 'grow', to: Math.min(config.maxShards, entry.shards * 2), why: heat });
  }
  // Cold: even its upper bound under a quarter of the bar for every shard it would keep, in every minute.
  for (const [group, entry] of map.groups) {
    if (entry.phase !== 'stable' || entry.shards <= defaultShards || cooling(group, entry)) continue;
    const to = Math.max(defaultShards, Math.floor(entry.shards / 2));
    const under = bar * COLD_FRACTION * to;
    const most = Math.max(0, ...inputs.minutes.map((minute) => atMost(minute, group)));
    if (most >= under) continue;
    const why = `cold a whole window: at most ${round(most)} write units/s a minute, under ${round(under)} on ${to}`;
    add(resizes, { group, action: 'shrink', shards: entry.shards, to, why });
  }
  return decision(resizes, holds, 'no group hot or cold enough to resize', inputs, config);
}

/** The group's most write units a second `load` can have had (load without groups: none). */
function atMost(load: FleetLoad, group: string): number {
  const hot = load.groups?.writeUnits;
  return hot ? groupRate(hot, group, load.windowSeconds).atMost : 0;
}

/** The decision: the first MAX_GROUP_RESIZES resizes, the rest held for the next step, holds listed after. */
function decision(
  resizes: readonly GroupChange[],
  holds: readonly GroupChange[],
  quiet: string,
  inputs: GroupStepInputs,
  config: AutopilotConfig,
): Decision {
  const started = resizes.slice(0, MAX_GROUP_RESIZES);
  const later = resizes.slice(MAX_GROUP_RESIZES).map(
    (c): GroupChange => ({
      ...c,
      action: 'hold',
      to: c.shards,
      why: `${c.why}; the next step (${MAX_GROUP_RESIZES} a step)`,
    }),
  );
  const held = [...later, ...holds];
  // Listed within bounds (the decision log is one item): the reason counts the rest.
  const groups = [...started, ...held.slice(0, MAX_GROUP_RESIZES)];
  const base = {
    imbalance: null,
    largestShare: largestGroupShare(inputs),
    bar: config.minGain,
    ...(groups.length > 0 && { groups }),
  };
  const [first] = held;
  if (started.length === 0) {
    const more = held.length > 1 ? ` (and ${held.length - 1} more)` : '';
    const left = first && `group ${JSON.stringify(first.group)} left on ${first.shards} shard(s): ${first.why}${more}`;
    return { action: 'none', reason: left || quiet, ...base, ...(!first && { calm: true }) };
  }
  const listed = started.slice(0, 3).map((c) => `${JSON.stringify(c.group)} ${c.shards} → ${c.to} (${c.why})`);
  const more = started.length > 3 ? `, and ${started.length - 3} more` : '';
  const waiting = first ? `; ${held.length} group(s) held` : '';
  return {
    action: 'resize',
    reason: `${started.length} group(s) resized: ${listed.join('; ')}${more}${waiting}`,
    ...base,
  };
}

/** The hottest group's share of a partition per shard it has (at most): the largest shard of the collection. */
function largestGroupShare(inputs: GroupStepInputs): number {
  const hot = inputs.window.groups?.writeUnits;
  if (!hot) return 0;
  const shares = hot.keys.map((counter) => {
    const shards = shardsOf(inputs.groups, counter.key, inputs.defaultShards).writeShards;
    return counter.count / inputs.window.windowSeconds / shards / PARTITION_WCU;
  });
  return round(Math.max(0, ...shares), 1000);
}

const round = (x: number, by = 100) => Math.round(x * by) / by;
