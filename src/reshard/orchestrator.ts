import { collectionView, type Collection, type IndexSpec } from '../core/collection';
import {
  backToSource,
  canAbort,
  canRollback,
  enterPhase,
  finished,
  migrationRefs,
  startMigration,
  type MapPointer,
  type MapRef,
  type MigrationProgress,
  type Phase,
  type ScanCheckpoint,
} from '../core/shard-map';
import { strategyFromConfig, type ShardStrategy, type StrategyConfig } from '../core/strategies';
import type { MapStore } from '../store/map-store';
import type { ScanPage, ScanRequest } from '../store/maintenance';
import type { CallContext } from '../store/retry';
import { ItemPasses, type ItemWriter } from './item-passes';
import { LeaseHeldError, PointerKeeper } from './pointer-keeper';
import { runScanPass, type PassSpec } from './scan-pass';

export interface ReshardDeps {
  readonly maps: MapStore;
  readonly writer: ItemWriter;
  readonly scanPage: (request: ScanRequest, context: CallContext) => Promise<ScanPage>;
  /** Makes sure an index exists and is ACTIVE (adding it when the table lacks it). */
  readonly ensureIndex: (index: IndexSpec) => Promise<void>;
  /** The collection as the config has it (table, field, indexes, members rule). */
  readonly collection: Collection;
  /** How long after a pointer change every router must have seen it: 3 × map TTL + request deadline. */
  readonly settleMs: number;
  readonly leaseMs: number;
  readonly scan: { readonly segments: number; readonly concurrency: number; readonly pageSize: number };
  /** Items scanned per second at most. */
  readonly rate?: number;
  /** Phase changes and waits, one line each. */
  readonly log: (line: string) => void;
  /** Every pointer this run writes. */
  readonly onPointer?: (pointer: MapPointer) => void;
  /** Every scanned page's counts (progress bars). */
  readonly onProgress?: (progress: MigrationProgress) => void;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/** What a finished run did. */
export interface ReshardOutcome {
  readonly pointer: MapPointer;
  /** Write units reported for this run's own updates. */
  readonly writeUnits: number;
  /** Items the migration's scans moved (set or removed an entry), interrupted runs included. */
  readonly moved: number;
}

/** Refused before anything changed: bad input or a state that does not allow it. */
export class ReshardRefused extends Error {
  override readonly name = 'ReshardRefused';
}

/**
 * Runs a collection's shard-map migrations (DESIGN §9): start or resume one to a
 * target strategy, abort, roll back, adopt. Each phase is entered only once every
 * router must have seen the previous one (`settleMs` after the pointer changed), and
 * each scan is checkpointed in the pointer, so running the same command after a crash
 * picks up where it stopped.
 */
export class Reshard {
  private readonly passes: ItemPasses;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private moved = 0;

  constructor(private readonly deps: ReshardDeps) {
    this.passes = new ItemPasses(deps.writer, deps.collection, deps.random);
    this.now = deps.now ?? Date.now;
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The collection's pointer, read now. */
  async pointer(): Promise<MapPointer> {
    const [pointer] = await this.deps.maps.readPointers([this.deps.collection], {});
    if (!pointer)
      throw new ReshardRefused(
        `collection "${this.deps.collection.name}" has no shard map yet: start the service once`,
      );
    return pointer;
  }

  async strategyOf(version: number): Promise<ShardStrategy> {
    const stored = await this.deps.maps.readVersion(this.deps.collection, version, {});
    if (!stored) throw new Error(`shard map v${version} of "${this.deps.collection.name}" is missing`);
    return strategyFromConfig(stored.strategy);
  }

  /** Migrates to `target` and on to `stable`, or resumes the migration to it already under way. */
  async run(target: StrategyConfig): Promise<ReshardOutcome> {
    const wanted = JSON.stringify(strategyFromConfig(target).config);
    let pointer = await this.pointer();
    if (pointer.phase === 'aborting' || pointer.phase === 'rolling-back') {
      throw new ReshardRefused(
        `an ${pointer.phase === 'aborting' ? 'abort' : 'rollback'} is under way: finish it with --abort`,
      );
    }
    if (pointer.phase === 'stable') {
      const current = await this.strategyOf(pointer.read.version);
      if (JSON.stringify(current.config) === wanted) {
        this.deps.log(`"${this.deps.collection.name}" already uses this map (v${pointer.read.version}): nothing to do`);
        return { pointer, writeUnits: 0, moved: 0 };
      }
      const targetSlot = pointer.read.slot === 0 ? 1 : 0;
      await this.deps.ensureIndex(this.deps.collection.indexes[targetSlot]);
      const version = await this.createVersion(pointer.read.version + 1, target);
      const keeper = await this.acquire(pointer, false, (p) =>
        startMigration(p, version, this.now(), this.deps.settleMs),
      );
      this.deps.log(`v${version} created; phase dual-write: writes now set both maps`);
      return this.drive(keeper);
    }
    const { target: ref } = migrationRefs(pointer);
    const building = await this.strategyOf(ref.version);
    if (JSON.stringify(building.config) !== wanted) {
      throw new ReshardRefused(
        `a reshard of "${this.deps.collection.name}" to v${ref.version} (${describe(building)}) is in phase ` +
          `${pointer.phase}: run --status, or --abort / --rollback it before starting another`,
      );
    }
    pointer = await this.waitForSilentLease(pointer);
    this.deps.log(`resuming the reshard to v${ref.version} in phase ${pointer.phase}`);
    return this.drive(await this.acquire(pointer, false));
  }

  /** Abandons the migration before reads switched (or finishes an abort under way). */
  async abort(): Promise<ReshardOutcome> {
    const pointer = await this.pointer();
    if (pointer.phase === 'stable') throw new ReshardRefused('no reshard is under way: nothing to abort');
    if (!canAbort(pointer.phase)) {
      throw new ReshardRefused(
        `reads already use the new map (phase ${pointer.phase}): ` +
          (canRollback(pointer.phase) ? 'use --rollback' : 'finalize has begun; let the reshard finish'),
      );
    }
    return this.unwind(await this.acquire(pointer, true));
  }

  /** Moves reads back to the old map and abandons the migration (any time before finalize). */
  async rollback(): Promise<ReshardOutcome> {
    const pointer = await this.pointer();
    if (pointer.phase === 'stable') throw new ReshardRefused('no reshard is under way: nothing to roll back');
    if (!canRollback(pointer.phase)) {
      throw new ReshardRefused('finalize has begun (writes set only the new map): let the reshard finish');
    }
    return this.unwind(await this.acquire(pointer, true));
  }

  /** Indexes the members rule's items that are not in the read map's index yet. */
  async adopt(): Promise<ReshardOutcome> {
    if (!this.deps.collection.members) {
      throw new ReshardRefused(`collection "${this.deps.collection.name}" has no "members" rule in the config`);
    }
    const pointer = await this.pointer();
    if (pointer.phase !== 'stable') {
      throw new ReshardRefused(`a reshard is under way (phase ${pointer.phase}); its backfill adopts members too`);
    }
    const keeper = await this.acquire(pointer, false);
    const listed = await this.view(pointer.read);
    await this.scanWith(keeper, this.passes.adopt(listed));
    return this.outcome(await keeper.release((p) => withoutScan(p)));
  }

  /** Drives a migration from its current phase to `stable`. */
  private async drive(keeper: PointerKeeper): Promise<ReshardOutcome> {
    try {
      for (;;) {
        const pointer = keeper.current;
        const { source, target } = migrationRefs(pointer);
        switch (pointer.phase) {
          case 'dual-write':
            await this.settle(pointer);
            await this.enter(keeper, 'backfill');
            break;
          case 'backfill':
            await this.scanWith(
              keeper,
              this.passes.build(await this.view(source), await this.view(target), 'backfill'),
            );
            await this.enter(keeper, 'verify');
            break;
          case 'verify':
            await this.verify(keeper, source, target);
            await this.enter(keeper, 'switch-reads');
            break;
          case 'switch-reads':
            await this.settle(pointer);
            await this.enter(keeper, 'finalize');
            break;
          case 'finalize': {
            await this.settle(pointer);
            await this.scanWith(keeper, this.passes.cleanup(await this.view(source)));
            const done = await keeper.release((p) => finished(p, this.now()));
            this.deps.onPointer?.(done);
            this.deps.log(`stable on v${target.version}: the old map's entries are gone`);
            return this.outcome(done);
          }
          default:
            return this.unwind(keeper);
        }
      }
    } finally {
      keeper.stop();
    }
  }

  /** Verify until a pass finds nothing to repair (a pass that repaired is checked again). */
  private async verify(keeper: PointerKeeper, source: MapRef, target: MapRef): Promise<void> {
    for (let round = 1; ; round++) {
      const result = await this.scanWith(
        keeper,
        this.passes.build(await this.view(source), await this.view(target), 'verify'),
      );
      const repaired = result.repaired ?? 0;
      this.deps.log(
        `verify: ${result.members} members checked, ${repaired} missing or misplaced` +
          (result.invalid > 0 ? `, ${result.invalid} with values that cannot be indexed (skipped)` : ''),
      );
      if (repaired === 0) return;
      if (round >= 5)
        throw new Error(
          'verify keeps finding entries to repair after 5 passes: is another tool writing index attributes?',
        );
      // The next pass starts afresh, not from this one's finished checkpoint.
      await keeper.update(withoutScan);
    }
  }

  /** Abort or rollback, from wherever the migration is, back to a stable source map. */
  private async unwind(keeper: PointerKeeper): Promise<ReshardOutcome> {
    try {
      const { source, target } = migrationRefs(keeper.current);
      // Reads go back first, and writes keep setting the new map until every router reads the old one.
      if (keeper.current.read.version === target.version) await this.enter(keeper, 'rolling-back');
      if (keeper.current.phase === 'rolling-back') await this.settle(keeper.current);
      if (keeper.current.phase !== 'aborting') await this.enter(keeper, 'aborting');
      await this.settle(keeper.current);
      await this.scanWith(keeper, this.passes.cleanup(await this.view(target)));
      const done = await keeper.release((p) => backToSource(p, this.now()));
      this.deps.onPointer?.(done);
      this.deps.log(`stable on v${source.version} again: the new map's entries are gone`);
      return this.outcome(done);
    } finally {
      keeper.stop();
    }
  }

  private async enter(keeper: PointerKeeper, phase: Phase): Promise<void> {
    const pointer = await keeper.update((p) => enterPhase(p, phase, this.now()));
    this.deps.onPointer?.(pointer);
    this.deps.log(`phase ${phase}`);
  }

  /**
   * Runs one scan, resuming from the pointer's checkpoint. The checkpoint is written at
   * most once a second (and whenever a segment finishes): a crash repeats at most that
   * much work, which every pass does harmlessly.
   */
  private async scanWith(keeper: PointerKeeper, spec: PassSpec) {
    const resume = keeper.current.checkpoint;
    let savedAt = 0;
    let segmentsDone = -1;
    const save = async (progress: MigrationProgress, checkpoint: ScanCheckpoint) => {
      // Not inside `onPointer?.(…)`: an optional call skips evaluating its arguments.
      const pointer = await keeper.update((p) => ({ ...p, progress, checkpoint }));
      this.deps.onPointer?.(pointer);
      savedAt = this.now();
      segmentsDone = progress.segmentsDone;
    };
    const result = await runScanPass(spec, {
      ...this.deps.scan,
      ...(this.deps.rate !== undefined && { rate: this.deps.rate }),
      ...(resume && { resumeFrom: resume }),
      ...(keeper.current.progress && { resumeCounts: keeper.current.progress }),
      scanPage: this.deps.scanPage,
      onPage: async (progress, checkpoint) => {
        this.deps.onProgress?.(progress);
        if (this.now() - savedAt >= 1000 || progress.segmentsDone !== segmentsDone) await save(progress, checkpoint);
      },
    });
    await save(result, { pass: spec.pass, segments: Array.from({ length: result.segments }, () => 'done' as const) });
    // Counts carried over from an interrupted run are included: what the migration moved in all.
    this.moved += result.moved;
    return result;
  }

  /** Waits until every router must have seen the pointer's last change. */
  private async settle(pointer: MapPointer): Promise<void> {
    const settleMs = Math.max(pointer.settleMs ?? 0, this.deps.settleMs);
    const wait = pointer.changedAt + settleMs - this.now();
    if (wait <= 0) return;
    this.deps.log(`waiting ${(wait / 1000).toFixed(1)} s until every router has seen phase ${pointer.phase}`);
    await this.sleep(wait);
  }

  private async createVersion(first: number, target: StrategyConfig): Promise<number> {
    const strategy = strategyFromConfig(target).config;
    // Versions of abandoned migrations stay taken: the next free number is used.
    for (let version = first; ; version++) {
      const created = await this.deps.maps.createVersion(
        this.deps.collection,
        { version, strategy, createdAt: new Date(this.now()).toISOString() },
        {},
      );
      if (created) return version;
    }
  }

  private acquire(pointer: MapPointer, force: boolean, change?: (p: MapPointer) => MapPointer) {
    return PointerKeeper.acquire(
      this.deps.maps,
      this.deps.collection,
      pointer,
      { leaseMs: this.deps.leaseMs, now: this.now, force },
      change,
    );
  }

  /**
   * A lease whose owner stopped beating (its process died) is waited out rather than
   * refused, so running the same command again after a crash just resumes.
   */
  private async waitForSilentLease(pointer: MapPointer): Promise<MapPointer> {
    const lease = pointer.lease;
    const now = this.now();
    if (!lease || lease.until <= now || now - lease.beat < this.deps.leaseMs / 2) return pointer;
    const wait = lease.until - now + 50;
    this.deps.log(`the previous run stopped answering; waiting ${(wait / 1000).toFixed(1)} s for its lease to expire`);
    await this.sleep(wait);
    return this.pointer();
  }

  private async view(ref: MapRef): Promise<Collection> {
    return collectionView(this.deps.collection, await this.strategyOf(ref.version), ref.slot);
  }

  private outcome(pointer: MapPointer): ReshardOutcome {
    return { pointer, writeUnits: this.passes.counters.writeUnits, moved: this.moved };
  }
}

function withoutScan(pointer: MapPointer): MapPointer {
  const { progress: _progress, checkpoint: _checkpoint, ...rest } = pointer;
  return rest;
}

export function describe(strategy: ShardStrategy): string {
  return `${strategy.kind}, ${strategy.shardCount} shards`;
}

export { LeaseHeldError };
