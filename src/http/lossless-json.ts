import type { Context, MiddlewareHandler, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import { hasCode, ShardlineError } from '../core/errors';
import { parseExactJson } from '../core/exact-json';
import { PROTO, protoNameIn } from '../core/values';
import type { AppEnv } from './env';
import { jsonText } from './json-text';
import { readBody } from './read-body';

// JSON without doubles, both ways (`JSON.parse` turns `9007199254740993` into …992): every number is kept as its
// text (`ExactNumber`) from the request body to DynamoDB and back into the response.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const utf8 = new TextEncoder();

/** A request body parsed losslessly: UTF-8 that is not well-formed is refused, never replaced by U+FFFD. */
export function parseJsonBody(bytes: ArrayBuffer | Uint8Array): unknown {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new ShardlineError('invalid_json', 'the request body is not well-formed UTF-8');
  }
  try {
    return parseExactJson(text);
  } catch (error) {
    throw new ShardlineError('invalid_json', `the request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** A JSON response whose numbers keep all their digits, typed like `c.json`'s so the route's schema checks it. */
export function exactJson<T, S extends ContentfulStatusCode>(
  c: Context<AppEnv>,
  value: T,
  status: S,
  headers: Record<string, string> = {},
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  // Bytes: a string body is first scanned for lone surrogates (docs/performance.md), which jsonText escapes already.
  const response = c.body(utf8.encode(jsonText(value)), status, { ...headers, 'content-type': 'application/json' });
  return response as unknown as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}

/**
 * Route middleware (after the body guards): parses the body losslessly and hands it to the route's zod validator
 * as `c.req.json()`, so the schema never sees a rounded number. A body not whole within `timeoutMs`, or by the
 * request's deadline (past it only a failure could come), is a 408, and a chunked one over `maxBytes` a 413, both
 * with `Connection: close`: the rest is never read.
 */
export function losslessBody(timeoutMs: number, maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const deadline = c.get('call')?.deadline;
    const within = deadline === undefined ? timeoutMs : Math.max(1, Math.min(timeoutMs, deadline - Date.now()));
    const bytes = await readBody(c.req.raw, within, maxBytes).catch((error) => {
      if (hasCode(error, 'request_timeout') || hasCode(error, 'payload_too_large')) c.header('Connection', 'close');
      throw error;
    });
    const parsed = parseJsonBody(bytes);
    const where = protoNameIn(parsed);
    if (where !== undefined) {
      throw new ShardlineError(
        'invalid_item',
        `the attribute name "${PROTO}" (${where ? `in ${where}` : 'at the top level'}) is not supported: ` +
          'the AWS SDK cannot carry it, so shardline could not store it as sent (docs/api.md)',
        { attribute: PROTO, at: where },
      );
    }
    c.req.json = <T>() => Promise.resolve(parsed as T);
    await next();
  };
}
