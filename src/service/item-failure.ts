import { type ErrorCode, ShardlineError } from '../core/errors';

/** The outcome of a batch: every input index is in exactly one of the two lists. */
export interface BatchOutcome {
  readonly written: number[];
  readonly failed: { index: number; error: ItemFailure }[];
}

/** Why one item of a batch was not done, as its `failed[].error` says. */
export interface ItemFailure {
  readonly code: ErrorCode;
  readonly message: string;
}

/**
 * One item's failure in a batch, by its ShardlineError. One with no code of its own (`internal`: a DynamoDB
 * refusal shardline has no name for, or a bug) fails that item alone, as `unavailable` naming what went
 * wrong: the batch goes on answering for the others.
 */
export function itemFailure(error: unknown): ItemFailure {
  if (error instanceof ShardlineError && error.code !== 'internal') return { code: error.code, message: error.message };
  const told = error instanceof ShardlineError ? (error.cause ?? error) : error;
  return { code: 'unavailable', message: String(told) };
}

/** Runs `run` on every input at once: each ends up done or failed (as `failure` reports it), both by index. */
export async function settleEach<T>(
  inputs: readonly T[],
  run: (input: T) => Promise<unknown>,
  failure: (error: unknown) => ItemFailure = itemFailure,
): Promise<{ done: number[]; failed: BatchOutcome['failed'] }> {
  const done: number[] = [];
  const failed: BatchOutcome['failed'] = [];
  await Promise.all(
    inputs.map(async (input, index) => {
      try {
        await run(input);
        done.push(index);
      } catch (error) {
        failed.push({ index, error: failure(error) });
      }
    }),
  );
  done.sort((a, b) => a - b);
  failed.sort((a, b) => a.index - b.index);
  return { done, failed };
}
