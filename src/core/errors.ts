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
  | 'internal';

export class ShardlineError extends Error {
  override readonly name = 'ShardlineError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra machine-readable facts for the client (e.g. which batch indexes failed). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function invalidRequest(message: string, details?: Record<string, unknown>): ShardlineError {
  return new ShardlineError('invalid_request', message, details);
}
