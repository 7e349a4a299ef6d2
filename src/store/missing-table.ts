import { ShardlineError } from '../core/errors';

/** A call's outcome, with DynamoDB's "no such table" as the 503 `table_missing` that names it. */
export function onTable<T>(table: string, sent: Promise<T>): Promise<T> {
  return sent.catch((error: unknown) => {
    if ((error as Error | undefined)?.name !== 'ResourceNotFoundException') throw error;
    throw new ShardlineError('table_missing', `table ${JSON.stringify(table)} is missing or not active`, {
      tables: [table],
      retryable: true,
    });
  });
}
