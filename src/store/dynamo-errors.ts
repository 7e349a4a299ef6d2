import { ShardlineError } from '../core/errors';

/**
 * DynamoDB's errors as shardline's own: the one place where the name of an error the SDK threw becomes
 * a ShardlineError code. Every call the store makes ends here (`withRetries`), so the layers above
 * (and `http/errors.ts`, which maps codes to statuses) never read an SDK error's name.
 */

/** The embedded engine could not write to its disk. Not retried: a full disk stays full longer than a request waits. */
export const STORAGE_UNAVAILABLE = 'StorageUnavailableException';

/** What the store knows of a call that DynamoDB refused. */
export interface RefusedCall {
  /** The table the call named: a missing one is named in the 503. */
  readonly table?: string;
  /**
   * The call writes an item someone else made (the caller's, another writer's): when DynamoDB refuses
   * it (too large, a value it cannot store) the item is at fault, a 400 `invalid_item`. A refused call
   * that shardline built itself (reads, its own records) is shardline's bug: it stays the SDK's error,
   * which the HTTP layer answers with a logged 500.
   */
  readonly carriesItem?: boolean;
}

interface NamedError {
  readonly name?: unknown;
  readonly message?: unknown;
}

/** `error` as shardline names it: a ShardlineError where the SDK's error has a meaning here, else `error` itself. */
export function translatedError(error: unknown, call: RefusedCall): unknown {
  if (error instanceof ShardlineError || !error || typeof error !== 'object') return error;
  const { name, message } = error as NamedError;
  switch (name) {
    case 'ResourceNotFoundException':
      return tableMissing(call.table);
    case 'ValidationException':
    case 'ItemCollectionSizeLimitExceededException':
      if (!call.carriesItem) return error;
      return new ShardlineError('invalid_item', `DynamoDB refused the item: ${String(message ?? '').slice(0, 300)}`);
    case STORAGE_UNAVAILABLE:
      return storageUnavailable(error);
    case 'AbortError':
      return new ShardlineError('timeout', 'the request deadline passed');
    default:
      return error;
  }
}

/** A conditional write whose condition DynamoDB found false: the outcome the guarded writes expect, not a failure. */
export function isConditionFailed(error: unknown): boolean {
  return (error as NamedError | undefined)?.name === 'ConditionalCheckFailedException';
}

export function isStorageUnavailable(error: unknown): boolean {
  return (error as NamedError | undefined)?.name === STORAGE_UNAVAILABLE;
}

/** The embedded engine's disk is full or read-only: writes wait for space (503), reads go on. */
function storageUnavailable(cause: unknown): ShardlineError {
  const message = String((cause as Error | undefined)?.message ?? 'the embedded engine cannot write').slice(0, 300);
  return new ShardlineError('storage_unavailable', message, { retryable: true, retryAfterSeconds: 5 });
}

/** DynamoDB's "no such table" (or one not active yet) as the 503 `table_missing`, naming the table when known. */
function tableMissing(table: string | undefined): ShardlineError {
  if (table === undefined) {
    return new ShardlineError('table_missing', 'the table is missing or not active', { retryable: true });
  }
  const message = `table ${JSON.stringify(table)} is missing or not active`;
  return new ShardlineError('table_missing', message, { tables: [table], retryable: true });
}
