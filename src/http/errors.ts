import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ErrorCode, internalError, invalidRequest, ShardlineError } from '../core/errors';
import type { AppEnv } from './env';

/** The one place error codes become HTTP statuses. */
const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_request: 400,
  invalid_json: 400,
  invalid_item: 400,
  invalid_cursor: 400,
  key_too_large: 400,
  item_too_large: 400,
  payload_too_large: 413,
  uri_too_long: 414,
  headers_too_large: 431,
  collection_not_found: 404,
  item_not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  route_not_found: 404,
  method_not_allowed: 405,
  unauthorized: 401,
  forbidden: 403,
  reserved_key: 403,
  rate_limited: 429,
  unavailable: 503,
  map_stale: 503,
  table_missing: 503,
  storage_unavailable: 503,
  overloaded: 503,
  timeout: 504,
  request_timeout: 408,
  // nginx's "client closed request": never seen by the client, only in logs and metrics.
  client_closed: 499 as ContentfulStatusCode,
  internal: 500,
  // As a single write's `invalid_item`: DynamoDB refused the item.
  rejected: 400,
  // The tools' codes, should one ever reach a client: a state that forbids the change, a run told to stop.
  refused: 409,
  stopped: 503,
};

/** All a client reads of an `internal` error. */
const INTERNAL_MESSAGE = 'internal error';

/** Seconds a client should wait before retrying a 503/429 that names no wait of its own. */
const RETRY_AFTER_SECONDS = 1;

export function errorStatus(code: ErrorCode): ContentfulStatusCode {
  return STATUS[code];
}

/** `{"error": {"code", "message", ...details, "requestId"}}`; an `internal` error's message and cause are the log's. */
export function errorResponse(c: Context<AppEnv>, error: ShardlineError): Response {
  const status = STATUS[error.code];
  if (status === 503 || status === 429) {
    const wait = error.details?.retryAfterSeconds;
    c.header('Retry-After', String(typeof wait === 'number' && wait > 0 ? Math.ceil(wait) : RETRY_AFTER_SECONDS));
  }
  return c.json({ error: { ...wireError(error), requestId: c.get('requestId') } }, status);
}

/** An error's JSON body without a request id (Node's HTTP parser, the admission gate): the same shape. */
export function errorBodyText(error: ShardlineError): string {
  return JSON.stringify({ error: wireError(error) });
}

/** A gate's refusal (admission, tables not ready), before the API's middleware: no request id yet, `Retry-After: 1`. */
export function gateRefusal(error: ShardlineError): Response {
  return new Response(errorBodyText(error), {
    status: errorStatus(error.code),
    headers: { 'content-type': 'application/json', 'retry-after': '1' },
  });
}

function wireError(error: ShardlineError): Record<string, unknown> {
  if (error.code === 'internal') return { code: 'internal', message: INTERNAL_MESSAGE };
  return { code: error.code, message: error.message, ...error.details };
}

/** A known path asked with a method it does not answer: 405, `Allow` naming the methods it does. */
export function methodNotAllowedResponse(c: Context<AppEnv>, allowed: readonly string[]): Response {
  c.header('Allow', allowed.join(', '));
  return errorResponse(
    c,
    new ShardlineError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}`, { allowed }),
  );
}

/** Anything a route threw as a JSON error (the store translates DynamoDB's); anything unknown is a bug: `internal`. */
export function toShardlineError(error: unknown): ShardlineError {
  if (error instanceof ShardlineError) return error;
  if (isCutOffBody(error)) return invalidRequest('the request body was cut off before its end');
  if (error instanceof HTTPException) {
    if (error.status === 413) return new ShardlineError('payload_too_large', 'the request body is too large');
    if (/json/i.test(error.message)) return new ShardlineError('invalid_json', 'the request body is not valid JSON');
    if (error.status < 500) return invalidRequest(error.message || 'bad request');
  }
  return internalError(INTERNAL_MESSAGE, error);
}

/** Node's "aborted" while reading a body: the client sent less than it announced, or went away. */
function isCutOffBody(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  return !!e && typeof e === 'object' && e.code === 'ECONNRESET' && e.message === 'aborted';
}

/** An unexpected error's (or an `internal` one's cause's) name and first message line: never a stack or a header. */
export function describeForLog(error: unknown): string {
  const told = error instanceof ShardlineError && error.cause !== undefined ? error.cause : error;
  if (told instanceof Error) return `${told.name}: ${String(told.message).split('\n')[0]?.slice(0, 300)}`;
  return typeof told;
}
