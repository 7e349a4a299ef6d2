import { z } from 'zod';
import { invalidRequest, ShardlineError } from './errors';

/**
 * Where one group's items are: shards `0 … shards-1` under `<prefix>#<group>#`, new writes on a random one of
 * `0 … writeShards-1`. The two differ only while a grow or shrink settles (docs/groups.md).
 */
export interface GroupShards {
  readonly shards: number;
  readonly writeShards: number;
  readonly phase: GroupPhase;
  /** Epoch ms of the last change. */
  readonly changedAt: number;
  /** How long after a change every router must have seen it. */
  readonly settleMs: number;
}

const PHASES = ['stable', 'growing', 'shrinking'] as const;
export type GroupPhase = (typeof PHASES)[number];

/** A collection's groups that are not on the default: one versioned record, replaced whole. */
export interface GroupMap {
  /** Bumped by every change; every replace is conditional on it (0: none stored yet). */
  readonly revision: number;
  readonly groups: ReadonlyMap<string, GroupShards>;
}

export const EMPTY_GROUP_MAP: GroupMap = { revision: 0, groups: new Map() };

/** Groups the record may name: past it a grow is refused with a clear error, never a silent drop. */
export const MAX_LISTED_GROUPS = 10_000;
/** The record's JSON stays well inside DynamoDB's 400 KB item. */
const MAX_RECORD_BYTES = 350_000;

export function shardsOf(map: GroupMap, group: string, defaultShards: number): GroupShards {
  return map.groups.get(group) ?? stableOn(defaultShards, 0);
}

function stableOn(shards: number, changedAt: number): GroupShards {
  return { shards, writeShards: shards, phase: 'stable', changedAt, settleMs: 0 };
}

/** The map with `group` set to `shards`: a grow widens reads first, a shrink narrows writes first; `settle` ends it. */
export function resize(
  map: GroupMap,
  group: string,
  shards: number,
  defaultShards: number,
  now: number,
  settleMs: number,
) {
  const current = shardsOf(map, group, defaultShards);
  if (current.phase !== 'stable') {
    throw new ShardlineError('conflict', `group ${JSON.stringify(group)} is already ${current.phase}; finish it first`);
  }
  if (shards === current.shards) return map;
  const entry: GroupShards =
    shards > current.shards
      ? { shards, writeShards: current.shards, phase: 'growing', changedAt: now, settleMs }
      : { shards: current.shards, writeShards: shards, phase: 'shrinking', changedAt: now, settleMs };
  return withEntry(map, group, entry, defaultShards);
}

/** Whether every router has seen the group's last change (its settle time has passed). */
export function isSettled(entry: GroupShards, now: number): boolean {
  return now >= entry.changedAt + entry.settleMs;
}

/** The map with the group's change finished: stable on the shards it was changed to. */
export function settle(map: GroupMap, group: string, defaultShards: number, now: number): GroupMap {
  const current = shardsOf(map, group, defaultShards);
  if (current.phase === 'stable') return map;
  const shards = current.phase === 'growing' ? current.shards : current.writeShards;
  return withEntry(map, group, stableOn(shards, now), defaultShards);
}

/** A group back on the default leaves the record: it lists only what differs. */
function withEntry(map: GroupMap, group: string, entry: GroupShards, defaultShards: number): GroupMap {
  const groups = new Map(map.groups);
  if (entry.phase === 'stable' && entry.shards === defaultShards) groups.delete(group);
  else groups.set(group, entry);
  if (groups.size > MAX_LISTED_GROUPS) {
    throw invalidRequest(
      `a collection lists at most ${MAX_LISTED_GROUPS} groups off its default shards; shrink some first`,
      { limit: MAX_LISTED_GROUPS },
    );
  }
  const next = { revision: map.revision + 1, groups };
  const bytes = Buffer.byteLength(serializeGroupMap(next));
  if (bytes > MAX_RECORD_BYTES) {
    throw invalidRequest(`the group map would be ${bytes} bytes; it holds at most ${MAX_RECORD_BYTES}`);
  }
  return next;
}

/** The stored form: compact rows, one a group. */
export function serializeGroupMap(map: GroupMap): string {
  const rows = [...map.groups].map(([group, e]) => [group, e.shards, e.writeShards, e.phase, e.changedAt, e.settleMs]);
  return JSON.stringify({ revision: map.revision, groups: rows });
}

const shardCount = z.int().min(1);
/** A stored row as `serializeGroupMap` writes it (what follows its six members is ignored). */
const groupRowSchema = z
  .tuple([z.string(), shardCount, shardCount, z.enum(PHASES), z.number(), z.number()])
  .rest(z.unknown());

/** Throws on anything a router must not route by. */
export function parseGroupMap(text: unknown): GroupMap {
  if (typeof text !== 'string') throw new Error('its groups attribute is not a string');
  const raw = JSON.parse(text) as { revision?: unknown; groups?: unknown };
  if (!Number.isInteger(raw.revision) || !Array.isArray(raw.groups)) throw new Error('it is not a group map');
  const groups = new Map<string, GroupShards>();
  for (const row of raw.groups as unknown[]) {
    const parsed = groupRowSchema.safeParse(row);
    if (!parsed.success) throw new Error(`its row ${JSON.stringify(row).slice(0, 80)} is malformed`);
    const [group, shards, writeShards, phase, changedAt, settleMs] = parsed.data;
    groups.set(group, { shards, writeShards, phase, changedAt, settleMs });
  }
  return { revision: raw.revision as number, groups };
}
