import type { MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';
import { losslessBody } from '../lossless-json';
import { bodyTooLarge, DEFAULT_BODY_TIMEOUT_MS } from '../read-body';

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
 * a 413, told from Content-Length up front or counted while a chunked body streams in. Then it is parsed losslessly.
 */
export function jsonBodyGuards(maxBytes: number, timeoutMs = DEFAULT_BODY_TIMEOUT_MS): MiddlewareHandler<AppEnv>[] {
  return [
    async (c, next) => {
      if (!JSON_CONTENT_TYPE.test(c.req.header('content-type') ?? '')) {
        throw new ShardlineError('invalid_json', 'send the body as JSON with Content-Type: application/json');
      }
      // Told without opening the body stream (that would leave it half read): the Node server then drains the rest
      // and keeps the connection, up to MAX_DRAINED_BYTES; past that it closes, and says so.
      const declared = Number(c.req.header('content-length') ?? Number.NaN);
      if (declared > maxBytes && !c.req.header('transfer-encoding')) {
        if (declared > MAX_DRAINED_BYTES) c.header('Connection', 'close');
        throw bodyTooLarge(maxBytes);
      }
      await next();
    },
    losslessBody(timeoutMs, maxBytes),
  ];
}

/** A PUT or PATCH body of a collection in parts: a 16 MiB entity, with room for JSON escaping. */
const ENTITY_BODY_BYTES = 17 * 1024 * 1024;

/** PUT's and PATCH's body guards: a collection in parts takes entities up to 16 MiB, any other its item limit. */
export function itemBodyGuards(
  limits: BodyLimits,
  inParts: (collection: string) => boolean,
): MiddlewareHandler<AppEnv> {
  const item = every(...jsonBodyGuards(limits.itemBytes, limits.timeoutMs));
  const entity = every(...jsonBodyGuards(Math.max(limits.itemBytes, ENTITY_BODY_BYTES), limits.timeoutMs));
  return (c, next) => (inParts(c.req.param('collection') ?? '') ? entity : item)(c, next);
}
