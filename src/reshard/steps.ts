import { type CollectionSpec, type IndexSpec, type RoutedCollection, routedBy } from '../core/collection';
import { malformedRecord, refused, ShardlineError } from '../core/errors';
import {
  enterPhase,
  type MapPointer,
  type MapRef,
  type MigrationProgress,
  type Phase,
  type ScanCheckpoint,
} from '../core/shard-map';
import { strategyFromConfig, type ShardStrategy, type StrategyConfig } from '../core/strategies';
import type { MapStore } from '../store/map-store';
import type { ScanPage, ScanRequest } from '../store/maintenance';
import { type CallContext, sleep } from '../store/retry';
import type { ItemPasses, ItemWriter } from './item-passes';
import { PointerKeeper } from './pointer-keeper';
import { runScanPass, type PassSpec } from './scan-pass';

export interface ReshardDeps {
  readonly mapStore: MapStore;
  readonly writer: ItemWriter;
  readonly scanPage: (request: ScanRequest, context: CallContext) => Promise<ScanPage>;
  /** Makes sure an index exists and is ACTIVE (adding it when the table lacks it). */
  readonly ensureIndex: (index: IndexSpec) => Promise<void>;
  readonly collection: CollectionSpec;
  /** How long after a pointer change every router has seen it (settleMsOf). */
  readonly settleMs: number;
  /** How old a grouped collection's group map may get in a scan's decisions (the routers' map TTL). */
  readonly groupMapTtlMs: number;
  readonly leaseMs: number;
  /** Asks the run to stop at its next safe point (SIGINT, SIGTERM): see `stopped`. */
  readonly stop?: AbortSignal;
  /** Wait out a lease whose run may have died (default); false refuses at once (`--no-wait`). */
  readonly waitForLease?: boolean;
  readonly scan: { readonly segments: number; readonly concurrency: number; readonly pageSize: number };
  /** Items scanned per second at most. */
  readonly rate?: number;
  readonly log: (line: string) => void;
  readonly onPointer?: (pointer: MapPointer) => void;
  /** Every scanned page's counts (progress bars). */
  readonly onProgress?: (progress: MigrationProgress) => void;
}

export interface ReshardOutcome {
  readonly pointer: MapPointer;
  /** Write units reported for this run's own updates. */
  readonly writeUnits: number;
  /** Items the migration's scans moved (set or removed an entry), interrupted runs included. */
  readonly moved: number;
  /** A check of the entries: members checked, and those found wrong. */
  readonly checked?: { readonly members: number; readonly stale: number };
}

/** The run stopped when asked, at a safe point; `released`: its lease is released already. */
export function stopped(message: string, released = false): ShardlineError {
  return new ShardlineError('stopped', message, released ? { released } : undefined);
}

/** Whether `error` is a stop whose lease is still to be released. */
export function stoppedHoldingLease(error: unknown): boolean {
  return error instanceof ShardlineError && error.code === 'stopped' && error.details?.released !== true;
}

/** The moves a migration is made of, each safe to repeat; the orchestrator (orchestrator.ts) decides their order. */
export class MigrationSteps {
  /** Items the scans moved, interrupted runs included. */
  moved = 0;

  constructor(readonly deps: ReshardDeps) {}

  async pointer(): Promise<MapPointer> {
    const [pointer] = await this.deps.mapStore.readPointers([this.deps.collection], {});
    if (!pointer)
      throw refused(`collection "${this.deps.collection.name}" has no shard map yet: start the service once`);
    return pointer;
  }

  async strategyOf(version: number): Promise<ShardStrategy> {
    const stored = await this.deps.mapStore.readVersion(this.deps.collection, version, {});
    // The store reads a malformed version as none.
    if (!stored) throw malformedRecord(`shard map v${version} of "${this.deps.collection.name}" is missing`);
    return strategyFromConfig(stored.strategy);
  }

  async enter(keeper: PointerKeeper, phase: Phase): Promise<void> {
    await keeper.update((p) => enterPhase(p, phase, Date.now()));
    this.deps.log(`phase ${phase}`);
  }

  /**
   * Runs one scan from the pointer's checkpoint, saved at most once a second and whenever a segment
   * finishes: a crash repeats at most that much work, which every pass does harmlessly.
   */
  async scanWith(keeper: PointerKeeper, spec: PassSpec) {
    let savedAt = 0;
    let segmentsDone = -1;
    let reached: ScanCheckpoint | undefined;
    const save = async (progress: MigrationProgress, checkpoint: ScanCheckpoint) => {
      await keeper.update((p) => ({ ...p, progress, checkpoint }));
      savedAt = Date.now();
      segmentsDone = progress.segmentsDone;
    };
    const { rate, scanPage, stop } = this.deps;
    const result = await runScanPass(spec, {
      ...this.deps.scan,
      rate,
      scanPage,
      stop,
      resume: keeper.current,
      onPage: async (progress, checkpoint) => {
        reached = checkpoint;
        this.deps.onProgress?.(progress);
        if (Date.now() - savedAt >= 1000 || progress.segmentsDone !== segmentsDone) await save(progress, checkpoint);
      },
    });
    if (this.deps.stop?.aborted) {
      if (reached) await save(result, reached);
      throw stopped(`stopped in phase ${keeper.current.phase}, its scan checkpointed`);
    }
    await save(result, { pass: spec.pass, segments: Array.from({ length: result.segments }, () => 'done' as const) });
    this.moved += result.moved;
    return result;
  }

  /** Waits until every router must have seen the pointer's last change. */
  async settle(pointer: MapPointer): Promise<void> {
    const settleMs = Math.max(pointer.settleMs ?? 0, this.deps.settleMs);
    const wait = pointer.changedAt + settleMs - Date.now();
    if (wait <= 0) return;
    this.deps.log(`waiting ${(wait / 1000).toFixed(1)} s until every router has seen phase ${pointer.phase}`);
    await sleep(wait, this.deps.stop);
    this.throwIfStopped();
  }

  throwIfStopped(): void {
    if (this.deps.stop?.aborted) throw stopped('stopped between two steps');
  }

  async createVersion(first: number, target: StrategyConfig): Promise<number> {
    const strategy = strategyFromConfig(target).config;
    // Versions of abandoned migrations stay taken: the next free number is used.
    for (let version = first; ; version++) {
      const stored = { version, strategy, createdAt: new Date().toISOString() };
      if (await this.deps.mapStore.createVersion(this.deps.collection, stored, {})) return version;
    }
  }

  acquire(pointer: MapPointer, force: boolean, change?: (p: MapPointer) => MapPointer) {
    const { mapStore, collection, leaseMs, onPointer } = this.deps;
    return PointerKeeper.acquire(mapStore, collection, pointer, { leaseMs, force, onWrite: onPointer }, change);
  }

  /**
   * Waits while another run's lease holds unrenewed: renewed, the run is alive (taking the lease then
   * refuses); expired, it died, and the same command after a crash resumes without the operator timing it.
   */
  async waitOutLease(pointer: MapPointer): Promise<MapPointer> {
    const seen = pointer.lease?.beat;
    let current = pointer;
    let told = -Infinity;
    for (;;) {
      const lease = current.lease;
      const now = Date.now();
      if (!lease || lease.until <= now || lease.beat !== seen || this.deps.waitForLease === false) return current;
      const left = lease.until - now;
      if (now - told >= LEASE_COUNTDOWN_MS) {
        this.deps.log(
          `another run holds the lease (last heartbeat ${Math.round((now - lease.beat) / 1000)} s ago); ` +
            `waiting ${Math.ceil(left / 1000)} s for it to beat again or expire (--no-wait refuses instead)`,
        );
        told = now;
      }
      await sleep(Math.min(left + 50, this.deps.leaseMs / 8, 1000));
      current = await this.pointer();
    }
  }

  /** The verify phase: passes over every member until one finds nothing to repair (a repair is checked again). */
  async verifyUntilClean(keeper: PointerKeeper, passes: ItemPasses, source: MapRef, target: MapRef): Promise<void> {
    for (let round = 1; ; round++) {
      const result = await this.scanWith(
        keeper,
        passes.build(await this.view(source), await this.view(target), 'verify'),
      );
      const repaired = result.repaired ?? 0;
      this.deps.log(
        `verify: ${result.members} members checked, ${repaired} missing or misplaced` +
          (result.invalid > 0 ? `, ${result.invalid} with values that cannot be indexed (skipped)` : ''),
      );
      if (repaired === 0) return;
      if (round >= MAX_VERIFY_PASSES) {
        throw new ShardlineError(
          'conflict',
          `verify keeps finding entries to repair after ${MAX_VERIFY_PASSES} passes: ` +
            'is another tool writing index attributes?',
        );
      }
      // The next pass starts afresh, not from this one's finished checkpoint.
      await keeper.update(withoutScan);
    }
  }

  async view(ref: MapRef): Promise<RoutedCollection> {
    return routedBy(this.deps.collection, ref.version, await this.strategyOf(ref.version), ref.slot);
  }
}

const LEASE_COUNTDOWN_MS = 5000;
/** Verify passes a migration runs at most before it suspects another writer of index attributes. */
const MAX_VERIFY_PASSES = 5;

export function withoutScan(pointer: MapPointer): MapPointer {
  const { progress: _progress, checkpoint: _checkpoint, ...rest } = pointer;
  return rest;
}
