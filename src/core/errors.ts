/** The one error type of shardline; src/http/errors.ts maps each stable `code` to a status. */
export type ErrorCode =
  | 'invalid_request'
  | 'invalid_json'
  | 'invalid_item'
  | 'invalid_cursor'
  | 'key_too_large'
  | 'item_too_large'
  | 'payload_too_large'
  | 'uri_too_long'
  | 'headers_too_large'
  | 'collection_not_found'
  | 'item_not_found'
  | 'conflict'
  | 'precondition_failed'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'unauthorized'
  | 'forbidden'
  | 'reserved_key'
  | 'rate_limited'
  | 'unavailable'
  | 'map_stale'
  | 'table_missing'
  | 'storage_unavailable'
  | 'overloaded'
  | 'timeout'
  | 'request_timeout'
  | 'client_closed'
  | 'internal'
  // One item of a batch that DynamoDB refused (a 4xx): only ever a `failed[].error.code`, never an answer's.
  | 'rejected'
  // The tools' (npm run reshard, follow): no request ends in these.
  | 'refused'
  | 'stopped';

export class ShardlineError extends Error {
  override readonly name = 'ShardlineError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra machine-readable facts for the client (e.g. which batch indexes failed). */
    readonly details?: Record<string, unknown>,
    /** `cause`: what this error stands for (the SDK's refusal, a bug's TypeError), for the log alone. */
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export function invalidRequest(message: string, details?: Record<string, unknown>): ShardlineError {
  return new ShardlineError('invalid_request', message, details);
}

/** A bug, or a failure shardline has no code for: a 500 whose message and `cause` are for the log alone. */
export function internalError(message: string, cause?: unknown): ShardlineError {
  return new ShardlineError('internal', message, undefined, cause === undefined ? undefined : { cause });
}

/** A record shardline stored (a shard map, a part, an index entry) that it cannot read: a 503 naming it. */
export function malformedRecord(message: string): ShardlineError {
  return new ShardlineError('unavailable', message);
}

/** A command (a reshard, the follower) refused before it changed anything: bad input or a state that forbids it. */
export function refused(message: string): ShardlineError {
  return new ShardlineError('refused', message);
}

export function hasCode(error: unknown, code: ErrorCode): error is ShardlineError {
  return error instanceof ShardlineError && error.code === code;
}
