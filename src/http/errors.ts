import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ShardlineError, type ErrorCode } from '../core/errors';

/** The one place error codes become HTTP statuses. */
const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_request: 400,
  invalid_json: 400,
  invalid_item: 400,
  invalid_cursor: 400,
  key_too_large: 400,
  item_too_large: 400,
  payload_too_large: 413,
  collection_not_found: 404,
  item_not_found: 404,
  route_not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  rate_limited: 429,
  unavailable: 503,
  timeout: 504,
  internal: 500,
};

/** Seconds a client should wait before retrying a 503/429. */
const RETRY_AFTER_SECONDS = '1';

export function errorStatus(code: ErrorCode): ContentfulStatusCode {
  return STATUS[code];
}

/** `{"error": {"code", "message", ...details}}` with the status of its code. */
export function errorResponse(c: Context, error: ShardlineError): Response {
  const status = STATUS[error.code];
  if (status === 503 || status === 429) c.header('Retry-After', RETRY_AFTER_SECONDS);
  return c.json({ error: { code: error.code, message: error.message, ...error.details } }, status);
}

/**
 * Maps anything thrown by a route to a JSON error. Unknown errors become a 500
 * whose body says nothing about internals; the details go to the log only.
 */
export function toShardlineError(error: unknown): ShardlineError {
  if (error instanceof ShardlineError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 413) return new ShardlineError('payload_too_large', 'the request body is too large');
    if (/json/i.test(error.message)) return new ShardlineError('invalid_json', 'the request body is not valid JSON');
    if (error.status < 500) return new ShardlineError('invalid_request', error.message || 'bad request');
  }
  return new ShardlineError('internal', 'internal error');
}
