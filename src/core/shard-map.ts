import { z } from 'zod';
import type { IndexSlot } from './collection';
import { malformedRecord, refused } from './errors';

/**
 * A collection's shard maps over time: numbered, immutable versions, and one pointer saying which version
 * listings read, which versions writes set, and where a migration is. A migration builds the target in the
 * index slot the source does not use, so the index being read only ever gains entries; it never sees one move.
 * docs/resharding.md tables what each phase writes, reads and runs (`enterPhase` spells reads and writes);
 * `rolling-back` then `aborting` undo one, whose scan removes the target's attributes.
 */
const phases = [
  'stable',
  'dual-write',
  'backfill',
  'verify',
  'switch-reads',
  'finalize',
  'rolling-back',
  'aborting',
] as const;

export type Phase = (typeof phases)[number];
export const PHASES: readonly Phase[] = phases;

export interface MapRef {
  readonly version: number;
  readonly slot: IndexSlot;
}

/** Counts of a migration's scans, for progress bars and `--status`. */
export interface MigrationProgress {
  readonly pass: 'backfill' | 'verify' | 'cleanup';
  readonly scanned: number;
  readonly members: number;
  /** Items this scan wrote (new attributes set, or old ones removed). */
  readonly moved: number;
  /** Members whose ordered field cannot be indexed (skipped and counted). */
  readonly invalid: number;
  /** Conditional updates that lost to a concurrent write (which set what was needed). */
  readonly conflicts: number;
  /** Verify only: members found missing or misplaced (repaired). */
  readonly repaired?: number;
  readonly segmentsDone: number;
  readonly segments: number;
  readonly startedAt: number;
}

/** Per segment the key to resume after, null (not started) or "done": a crashed run resumes where it stopped. */
export interface ScanCheckpoint {
  readonly pass: MigrationProgress['pass'];
  readonly segments: readonly (Record<string, unknown> | null | 'done')[];
}

/** Who is running the migration, until when (renewed by heartbeats); epoch ms. */
export interface Lease {
  readonly owner: string;
  readonly beat: number;
  /** After this another run may take over. */
  readonly until: number;
}

export interface MapPointer {
  /** Bumped by every change; every update is conditional on it. */
  readonly revision: number;
  readonly phase: Phase;
  readonly read: MapRef;
  /** The maps every write sets, source first. */
  readonly writes: readonly MapRef[];
  /** During a migration: the map it moves from and the map it builds. */
  readonly source?: MapRef;
  readonly target?: MapRef;
  /** Epoch ms of the last change of phase, read map or write maps. */
  readonly changedAt: number;
  /** How long after a change every router must have seen it (the orchestrator's settle time). */
  readonly settleMs?: number;
  readonly progress?: MigrationProgress;
  readonly checkpoint?: ScanCheckpoint;
  readonly lease?: Lease;
}

/** The pointer of a collection whose first map (version 1) is in slot 0. */
export function initialPointer(now: number): MapPointer {
  const first: MapRef = { version: 1, slot: 0 };
  return { revision: 1, phase: 'stable', read: first, writes: [first], changedAt: now };
}

export function startMigration(pointer: MapPointer, version: number, now: number, settleMs: number): MapPointer {
  if (pointer.phase !== 'stable') throw refused(`a migration is already under way (phase ${pointer.phase})`);
  const source = pointer.read;
  const target: MapRef = { version, slot: source.slot === 0 ? 1 : 0 };
  return {
    revision: pointer.revision,
    phase: 'dual-write',
    read: source,
    writes: [source, target],
    source,
    target,
    changedAt: now,
    settleMs,
  };
}

/** The pointer in `phase`, with its reads and writes; progress and checkpoint (one scan's) go, the lease stays. */
export function enterPhase(pointer: MapPointer, phase: Phase, now: number): MapPointer {
  const { source, target } = migrationRefs(pointer);
  const both = [source, target];
  const shape: Record<Phase, Pick<MapPointer, 'read' | 'writes'>> = {
    stable: { read: target, writes: [target] },
    'dual-write': { read: source, writes: both },
    backfill: { read: source, writes: both },
    verify: { read: source, writes: both },
    'switch-reads': { read: target, writes: both },
    finalize: { read: target, writes: [target] },
    'rolling-back': { read: source, writes: both },
    aborting: { read: source, writes: [source] },
  };
  const { progress: _progress, checkpoint: _checkpoint, ...rest } = pointer;
  return { ...rest, phase, ...shape[phase], changedAt: now };
}

/** The stable pointer on the source map after an abort or rollback has cleaned up. */
export function backToSource(pointer: MapPointer, now: number): MapPointer {
  return settled(pointer, migrationRefs(pointer).source, now);
}

/** The stable pointer on the target map once finalize has cleaned up. */
export function finished(pointer: MapPointer, now: number): MapPointer {
  return settled(pointer, migrationRefs(pointer).target, now);
}

function settled(pointer: MapPointer, map: MapRef, now: number): MapPointer {
  const { progress: _p, checkpoint: _c, source: _s, target: _t, settleMs: _m, ...rest } = pointer;
  return { ...rest, phase: 'stable', read: map, writes: [map], changedAt: now };
}

export function migrationRefs(pointer: MapPointer): { source: MapRef; target: MapRef } {
  if (!pointer.source || !pointer.target) throw refused(`no migration is under way (phase ${pointer.phase})`);
  return { source: pointer.source, target: pointer.target };
}

/** Whether an abort still leaves nothing to undo on the read side (reads never left the source). */
export function canAbort(phase: Phase): boolean {
  return phase === 'dual-write' || phase === 'backfill' || phase === 'verify' || phase === 'aborting';
}

/** A rollback is possible until finalize stops writing the source's attributes. */
export function canRollback(phase: Phase): boolean {
  return canAbort(phase) || phase === 'switch-reads' || phase === 'rolling-back';
}

const mapRefSchema = z.object({ version: z.int(), slot: z.literal([0, 1]) });
const pointerSchema = z.object({
  revision: z.int(),
  phase: z.enum(phases),
  read: mapRefSchema,
  writes: z.array(mapRefSchema).min(1),
  changedAt: z.number(),
});

/** Checks a stored pointer's shape (parsed JSON); throws on anything a router must not route by. */
export function parsePointer(raw: unknown): MapPointer {
  if (!pointerSchema.safeParse(raw).success) throw malformedRecord('the stored shard-map pointer is malformed');
  return raw as MapPointer;
}
