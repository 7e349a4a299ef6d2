import { internalError, ShardlineError } from '../core/errors';

/**
 * DynamoDB's errors as shardline's own: the one place where an SDK error's name becomes a ShardlineError
 * code (every store call ends here through `withRetries`). The SDK's error stays the translation's `cause`.
 */

/** The embedded engine could not write to its disk. Not retried: a full disk stays full longer than a request waits. */
export const STORAGE_UNAVAILABLE = 'StorageUnavailableException';

const CONDITION_FAILED = 'ConditionalCheckFailedException';

/** What the store knows of a call that DynamoDB refused. */
export interface RefusedCall {
  /** The table the call named: a missing one is named in the 503. */
  readonly table?: string;
  /**
   * The call writes an item someone else made: DynamoDB refusing it is the item's fault, a 400 `invalid_item`.
   * A refused call that shardline built itself is shardline's bug: `internal`, a logged 500.
   */
  readonly carriesItem?: boolean;
}

interface NamedError {
  readonly name?: unknown;
  readonly message?: unknown;
}

/**
 * `error` as shardline names it. A refusal with no meaning here (access denied, a call shardline built
 * wrong) and anything else thrown under a call are `internal`, keeping the SDK's message for the log.
 */
export function translatedError(error: unknown, call: RefusedCall): ShardlineError {
  if (error instanceof ShardlineError) return error;
  if (!error || typeof error !== 'object') return internalError(`a DynamoDB call failed: ${String(error)}`, error);
  const { name, message } = error as NamedError;
  const cause = { cause: error };
  switch (name) {
    case 'ResourceNotFoundException':
      return tableMissing(call.table, error);
    case 'ValidationException':
    case 'ItemCollectionSizeLimitExceededException':
      if (!call.carriesItem) break;
      return new ShardlineError(
        'invalid_item',
        `DynamoDB refused the item: ${String(message ?? '').slice(0, 300)}`,
        undefined,
        cause,
      );
    case STORAGE_UNAVAILABLE: {
      // Writes wait for space (503), reads go on.
      const details = { retryable: true, retryAfterSeconds: 5 };
      const text = String(message ?? 'the embedded engine cannot write').slice(0, 300);
      return new ShardlineError('storage_unavailable', text, details, cause);
    }
    case 'AbortError':
      return new ShardlineError('timeout', 'the request deadline passed', undefined, cause);
    case CONDITION_FAILED:
      // The outcome every guarded write expects, and catches (`isConditionFailed`); one let through lost a race.
      return new ShardlineError('conflict', 'the item changed while it was written; try again', undefined, cause);
  }
  return internalError(String(message ?? name), error);
}

/** Whether `error` is DynamoDB's error `name`, as the SDK threw it or as `translatedError` stands for it. */
export function isDynamoError(error: unknown, name: string): boolean {
  const told = error instanceof ShardlineError ? error.cause : error;
  return (told as NamedError | undefined)?.name === name;
}

/** A conditional write whose condition DynamoDB found false: the outcome the guarded writes expect, not a failure. */
export function isConditionFailed(error: unknown): boolean {
  return isDynamoError(error, CONDITION_FAILED);
}

/** DynamoDB's "no such table" (or one not active yet) as the 503 `table_missing`, naming the table when known. */
function tableMissing(table: string | undefined, cause: unknown): ShardlineError {
  const which = table === undefined ? 'the table' : `table ${JSON.stringify(table)}`;
  const details = { ...(table !== undefined && { tables: [table] }), retryable: true };
  return new ShardlineError('table_missing', `${which} is missing or not active`, details, { cause });
}
