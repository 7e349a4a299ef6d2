import type { MapRef } from '../core/shard-map';
import type { ItemPasses } from './item-passes';
import type { PointerKeeper } from './pointer-keeper';
import { withoutScan, type MigrationSteps } from './steps';

/** Verify passes a migration runs at most before it suspects another writer of index attributes. */
const MAX_VERIFY_PASSES = 5;

/**
 * The verify phase: passes over every member until one finds nothing to repair (a pass
 * that repaired is checked by another), each logged with what it found.
 */
export async function verifyUntilClean(
  steps: MigrationSteps,
  passes: ItemPasses,
  keeper: PointerKeeper,
  source: MapRef,
  target: MapRef,
): Promise<void> {
  for (let round = 1; ; round++) {
    const result = await steps.scanWith(
      keeper,
      passes.build(await steps.view(source), await steps.view(target), 'verify'),
    );
    const repaired = result.repaired ?? 0;
    steps.deps.log(
      `verify: ${result.members} members checked, ${repaired} missing or misplaced` +
        (result.invalid > 0 ? `, ${result.invalid} with values that cannot be indexed (skipped)` : ''),
    );
    if (repaired === 0) return;
    if (round >= MAX_VERIFY_PASSES) {
      throw new Error(
        `verify keeps finding entries to repair after ${MAX_VERIFY_PASSES} passes: ` +
          'is another tool writing index attributes?',
      );
    }
    // The next pass starts afresh, not from this one's finished checkpoint.
    await keeper.update(withoutScan);
  }
}
