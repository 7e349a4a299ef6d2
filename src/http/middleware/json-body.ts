import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';
import { losslessBody } from '../lossless-json';
import { DEFAULT_BODY_TIMEOUT_MS } from '../read-body';

export interface BodyLimits {
  /** A single item (PUT): DynamoDB's 400 KB item, with room for JSON escaping. */
  readonly itemBytes: number;
  readonly batchBytes: number;
  /** How long a body may take to arrive whole before a 408 (DEFAULT_BODY_TIMEOUT_MS when unset). */
  readonly timeoutMs?: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { itemBytes: 1024 * 1024, batchBytes: 16 * 1024 * 1024 };

/** What the Node server reads and drops of a refused body before it closes the connection instead. */
const MAX_DRAINED_BYTES = 64 * 1024 * 1024;

/** `application/json` or a `+json` type (`application/problem+json`), with any parameters. */
const JSON_CONTENT_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * For a route that reads a JSON body, before its validators: a body not sent as JSON is a 400; one over `maxBytes`
 * a 413, told from Content-Length up front or counted while a chunked body streams in, before any of it is parsed.
 * Then it is parsed losslessly (losslessBody). Routes that take no body need none of this: nothing reads it.
 */
export function jsonBodyGuards(maxBytes: number, timeoutMs = DEFAULT_BODY_TIMEOUT_MS): MiddlewareHandler<AppEnv>[] {
  return [
    async (c, next) => {
      if (!JSON_CONTENT_TYPE.test(c.req.header('content-type') ?? '')) {
        throw new ShardlineError('invalid_json', 'send the body as JSON with Content-Type: application/json');
      }
      // Told from Content-Length without opening the body stream (that would leave it half read): the Node server
      // then reads the rest and keeps the connection, up to what it drains (64 MiB); past that it closes, and says so.
      const declared = Number(c.req.header('content-length') ?? Number.NaN);
      if (declared > maxBytes && !c.req.header('transfer-encoding')) {
        if (declared > MAX_DRAINED_BYTES) c.header('Connection', 'close');
        throw tooLarge(maxBytes);
      }
      await next();
    },
    countedBody(maxBytes),
    losslessBody(timeoutMs),
  ];
}

/**
 * Hono's body limit for a body of no declared length (chunked), counted as it streams in. A declared length the
 * guard above has held to `maxBytes` already: hono's limit would only open the body as a web stream to learn
 * nothing more, and the body is then read whole (read-body.ts).
 */
function countedBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  const counted = bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      // The rest of a streamed body is left unread: the connection cannot carry another request.
      c.header('Connection', 'close');
      throw tooLarge(maxBytes);
    },
  });
  return (c, next) =>
    c.req.header('content-length') !== undefined && c.req.header('transfer-encoding') === undefined
      ? next()
      : counted(c, next);
}

function tooLarge(maxBytes: number): ShardlineError {
  return new ShardlineError('payload_too_large', `the request body is over ${maxBytes} bytes`, {
    limitBytes: maxBytes,
  });
}
