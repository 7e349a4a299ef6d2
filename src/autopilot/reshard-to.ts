import type { CollectionSpec } from '../core/collection';
import type { StrategyConfig } from '../core/strategies';
import { exitCodeOf, finishedLine, openReshard, type ReshardTable } from '../reshard/run-reshard';

/** How a reshard the autopilot ran ended: `npm run reshard`'s exit codes, and its last line. */
export interface ReshardResult {
  /** 0 done; 1 failed; 3 refused, nothing changed (another run holds the lease); 130 stopped, to resume. */
  readonly code: number;
  readonly last: string;
}

export interface AutopilotReshard {
  /** Items scanned per second at most (the collection's `autopilot.rate`). */
  readonly rate: number;
  /** Wait out another run's lease (a new reshard) or leave a live run alone (resuming one). */
  readonly wait: boolean;
  readonly stop?: AbortSignal;
  readonly log: (line: string) => void;
}

/**
 * Runs (or resumes) the reshard of `collection` to `target` with the same orchestrator
 * as `npm run reshard`, to its end or to a safe point when `stop` fires: the checkpoint
 * and the pointer's phase are where the next step picks it up.
 */
export async function reshardTo(
  table: ReshardTable,
  collection: CollectionSpec,
  target: StrategyConfig,
  run: AutopilotReshard,
): Promise<ReshardResult> {
  const started = Date.now();
  const reshard = openReshard(table, collection, {
    segments: 8,
    rate: run.rate,
    waitForLease: run.wait,
    log: run.log,
    ...(run.stop && { stop: run.stop }),
  });
  try {
    const outcome = await reshard.run(target);
    return { code: 0, last: finishedLine(collection.name, outcome, (Date.now() - started) / 1000) };
  } catch (error) {
    const code = exitCodeOf(error);
    const message = (error as Error).message;
    return { code, last: code === 130 ? `${message}; the next step resumes it` : message };
  }
}
