import { ShardlineError } from '../core/errors';
import type { ItemFailure } from '../store/store';

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
