import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';
import { losslessBody } from '../lossless-json';
import { DEFAULT_BODY_IDLE_MS } from '../read-body';

export interface BodyLimits {
  /** A single item (PUT): DynamoDB's 400 KB item, with room for JSON escaping. */
  readonly itemBytes: number;
  /** A batch (POST …/batch): up to 1000 items. */
  readonly batchBytes: number;
  /** How long a body may stop arriving before a 408 (DEFAULT_BODY_IDLE_MS when unset). */
  readonly idleMs?: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = {
  itemBytes: 1024 * 1024,
  batchBytes: 16 * 1024 * 1024,
  idleMs: DEFAULT_BODY_IDLE_MS,
};

/** What the Node server reads and drops of a refused body before it closes the connection instead. */
const MAX_DRAINED_BYTES = 64 * 1024 * 1024;

/** `application/json` or a `+json` type (`application/problem+json`), with any parameters. */
const JSON_CONTENT_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * Middleware for a route that reads a JSON body (`apiRoute({ middleware })`), run before its validators:
 * a body sent as anything but JSON is a 400 `invalid_json`; one over `maxBytes` is a 413 `payload_too_large`
 * (with `limitBytes`), told from Content-Length up front or counted while a chunked body streams in — either
 * way before any of it is parsed. Then the body is parsed losslessly (numbers keep all their digits, UTF-8 that
 * is not well-formed is a 400), and one that stops arriving for `idleMs` is a 408 `request_timeout`.
 * Routes that take no body need neither: nothing on them reads it.
 */
export function jsonBodyGuards(maxBytes: number, idleMs = DEFAULT_BODY_IDLE_MS): MiddlewareHandler<AppEnv>[] {
  return [
    async (c, next) => {
      if (!JSON_CONTENT_TYPE.test(c.req.header('content-type') ?? '')) {
        throw new ShardlineError('invalid_json', 'send the body as JSON with Content-Type: application/json');
      }
      // Told from Content-Length without touching the body: the Node server then reads the rest
      // of it and keeps the connection (opening the body stream here would leave it half read) —
      // up to what @hono/node-server drains (64 MiB); past that it closes, and the answer says so.
      const declared = Number(c.req.header('content-length') ?? Number.NaN);
      if (declared > maxBytes && !c.req.header('transfer-encoding')) {
        if (declared > MAX_DRAINED_BYTES) c.header('Connection', 'close');
        throw tooLarge(maxBytes);
      }
      await next();
    },
    bodyLimit({
      maxSize: maxBytes,
      onError: (c) => {
        // A streamed body was read up to the limit: the rest is left unread, so the connection cannot
        // carry another request, and the answer says so.
        c.header('Connection', 'close');
        throw tooLarge(maxBytes);
      },
    }),
    losslessBody(idleMs),
  ];
}

function tooLarge(maxBytes: number): ShardlineError {
  return new ShardlineError('payload_too_large', `the request body is over ${maxBytes} bytes`, {
    limitBytes: maxBytes,
  });
}
