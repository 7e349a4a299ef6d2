import {
  backToSource,
  canAbort,
  canRollback,
  finished,
  migrationRefs,
  PHASES,
  startMigration,
  type MapPointer,
} from '../core/shard-map';
import type { RoutedCollection } from '../core/collection';
import { refused } from '../core/errors';
import { sameStrategy, strategyFromConfig, type ShardStrategy, type StrategyConfig } from '../core/strategies';
import { ItemPasses } from './item-passes';
import type { PointerKeeper } from './pointer-keeper';
import { ScanGroups } from './scan-groups';
import type { PassSpec } from './scan-pass';
import {
  MigrationSteps,
  stopped,
  stoppedHoldingLease,
  withoutScan,
  type ReshardDeps,
  type ReshardOutcome,
} from './steps';

export function describe(strategy: ShardStrategy): string {
  return `${strategy.kind}, ${strategy.shardCount} shards`;
}

/**
 * Runs a collection's shard-map migrations (docs/resharding.md): start or resume one, abort, roll back,
 * adopt, check. Each phase is entered once every router has seen the previous one, and each scan is
 * checkpointed in the pointer, so the same command after a crash picks up where it stopped.
 */
export class Reshard {
  private readonly passes: ItemPasses;
  private readonly steps: MigrationSteps;

  constructor(private readonly deps: ReshardDeps) {
    const groups = new ScanGroups(deps.mapStore, deps.collection, deps.groupMapTtlMs);
    this.passes = new ItemPasses(deps.writer, deps.collection, groups);
    this.steps = new MigrationSteps(deps);
  }

  pointer(): Promise<MapPointer> {
    return this.steps.pointer();
  }

  strategyOf(version: number): Promise<ShardStrategy> {
    return this.steps.strategyOf(version);
  }

  /** Migrates to `target` and on to `stable`, or resumes the migration to it already under way. */
  async run(target: StrategyConfig): Promise<ReshardOutcome> {
    const { group, name } = this.deps.collection;
    // Its groups' shard keys are no map's `<prefix>#<shard>`: a new map would index every item outside its group.
    if (group) {
      throw refused(
        `"${name}" is grouped by "${group.field}": a collection reshard does not apply; ` +
          'resize one group with --group G --shards N',
      );
    }
    const wanted = strategyFromConfig(target);
    // A run that crashed still holds the lease for a while: wait it out, or find the run alive.
    const pointer = await this.steps.waitOutLease(await this.steps.pointer());
    if (pointer.phase === 'aborting' || pointer.phase === 'rolling-back') {
      throw refused(`an ${pointer.phase === 'aborting' ? 'abort' : 'rollback'} is under way: finish it with --abort`);
    }
    if (pointer.phase === 'stable') {
      const current = await this.steps.strategyOf(pointer.read.version);
      if (sameStrategy(current, wanted)) {
        this.deps.log(`"${name}" already uses this map (v${pointer.read.version}): nothing to do`);
        return { pointer, writeUnits: 0, moved: 0 };
      }
      const targetSlot = pointer.read.slot === 0 ? 1 : 0;
      await this.deps.ensureIndex(this.deps.collection.indexes[targetSlot]);
      const version = await this.steps.createVersion(pointer.read.version + 1, target);
      const keeper = await this.steps.acquire(pointer, false, (p) =>
        startMigration(p, version, Date.now(), this.deps.settleMs),
      );
      this.deps.log(`v${version} created; phase dual-write: writes now set both maps`);
      return this.drive(keeper);
    }
    const { target: ref } = migrationRefs(pointer);
    const building = await this.steps.strategyOf(ref.version);
    if (!sameStrategy(building, wanted)) {
      throw refused(
        `a reshard of "${name}" to v${ref.version} (${describe(building)}) is in phase ` +
          `${pointer.phase}: run --status, or --abort / --rollback it before starting another`,
      );
    }
    this.deps.log(`resuming the reshard to v${ref.version} in phase ${pointer.phase}`);
    return this.drive(await this.steps.acquire(pointer, false));
  }

  /** Abandons the migration before reads switched (or finishes an abort under way). */
  async abort(): Promise<ReshardOutcome> {
    const pointer = await this.underWay('abort');
    if (!canAbort(pointer.phase)) {
      throw refused(
        `reads already use the new map (phase ${pointer.phase}): ` +
          (canRollback(pointer.phase) ? 'use --rollback' : 'finalize has begun; let the reshard finish'),
      );
    }
    return this.unwind(await this.steps.acquire(pointer, true));
  }

  /** Moves reads back to the old map and abandons the migration (any time before finalize). */
  async rollback(): Promise<ReshardOutcome> {
    const pointer = await this.underWay('roll back');
    if (!canRollback(pointer.phase)) {
      throw refused('finalize has begun (writes set only the new map): let the reshard finish');
    }
    return this.unwind(await this.steps.acquire(pointer, true));
  }

  private async underWay(verb: string): Promise<MapPointer> {
    const pointer = await this.steps.pointer();
    if (pointer.phase === 'stable') throw refused(`no reshard is under way: nothing to ${verb}`);
    return pointer;
  }

  /** Indexes the members rule's items that are not in the read map's index yet. */
  async adopt(): Promise<ReshardOutcome> {
    if (!this.deps.collection.members) {
      throw refused(`collection "${this.deps.collection.name}" has no "members" rule in the config`);
    }
    const [outcome] = await this.scanStable('its backfill adopts members too', (listed) => this.passes.adopt(listed));
    return outcome;
  }

  /** Checks every member's entry in the read map's index (never during a migration); `repair` rewrites wrong ones. */
  async checkEntries(repair: boolean): Promise<ReshardOutcome> {
    const [outcome, result] = await this.scanStable('its verify pass does this', (listed) =>
      this.passes.check(listed, repair),
    );
    return { ...outcome, checked: { members: result.members, stale: result.repaired ?? 0 } };
  }

  /** One scan of a stable collection's read map under the lease (`duringMigration`: why not now). */
  private async scanStable(duringMigration: string, pass: (listed: RoutedCollection) => PassSpec) {
    const pointer = await this.steps.pointer();
    if (pointer.phase !== 'stable')
      throw refused(`a reshard is under way (phase ${pointer.phase}); ${duringMigration}`);
    const keeper = await this.steps.acquire(await this.steps.waitOutLease(pointer), false);
    const listed = await this.steps.view(pointer.read);
    const result = await this.releasedIfStopped(keeper, () => this.steps.scanWith(keeper, pass(listed)));
    return [this.outcome(await keeper.release(withoutScan)), result] as const;
  }

  /** Drives a migration from its current phase to `stable`. */
  private drive(keeper: PointerKeeper): Promise<ReshardOutcome> {
    return this.releasedIfStopped(keeper, async () => {
      for (;;) {
        this.steps.throwIfStopped();
        const pointer = keeper.current;
        const { source, target } = migrationRefs(pointer);
        switch (pointer.phase) {
          case 'dual-write':
          case 'switch-reads':
            await this.steps.settle(pointer);
            break;
          case 'backfill':
            await this.steps.scanWith(
              keeper,
              this.passes.build(await this.steps.view(source), await this.steps.view(target), 'backfill'),
            );
            break;
          case 'verify':
            await this.steps.verifyUntilClean(keeper, this.passes, source, target);
            break;
          case 'finalize': {
            await this.steps.settle(pointer);
            await this.steps.scanWith(keeper, this.passes.cleanup(await this.steps.view(source)));
            const done = await keeper.release((p) => finished(p, Date.now()));
            this.deps.log(`stable on v${target.version}: the old map's entries are gone`);
            return this.outcome(done);
          }
          default:
            return this.unwind(keeper);
        }
        // On to the next phase of PHASES: backfill, verify, switch-reads, finalize.
        await this.steps.enter(keeper, PHASES[PHASES.indexOf(pointer.phase) + 1]!);
      }
    });
  }

  /** Runs `work` holding the lease; stopped at a safe point, releases it so the same command resumes at once. */
  private async releasedIfStopped<T>(keeper: PointerKeeper, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!stoppedHoldingLease(error)) throw error;
      const left = await keeper.release((p) => p);
      throw stopped(`stopped in phase ${left.phase}; the lease is released`, true);
    } finally {
      keeper.stop();
    }
  }

  /** Abort or rollback, from wherever the migration is, back to a stable source map. */
  private unwind(keeper: PointerKeeper): Promise<ReshardOutcome> {
    return this.releasedIfStopped(keeper, async () => {
      const { source, target } = migrationRefs(keeper.current);
      // Reads go back first, and writes keep setting the new map until every router reads the old one.
      if (keeper.current.read.version === target.version) await this.steps.enter(keeper, 'rolling-back');
      if (keeper.current.phase === 'rolling-back') await this.steps.settle(keeper.current);
      if (keeper.current.phase !== 'aborting') await this.steps.enter(keeper, 'aborting');
      await this.steps.settle(keeper.current);
      await this.steps.scanWith(keeper, this.passes.cleanup(await this.steps.view(target)));
      const done = await keeper.release((p) => backToSource(p, Date.now()));
      this.deps.log(`stable on v${source.version} again: the new map's entries are gone`);
      return this.outcome(done);
    });
  }

  private outcome(pointer: MapPointer): ReshardOutcome {
    return { pointer, writeUnits: this.passes.writeUnits, moved: this.steps.moved };
  }
}
