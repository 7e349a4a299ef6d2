import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';

export interface BodyLimits {
  /** A single item (PUT): DynamoDB's 400 KB item, with room for JSON escaping. */
  readonly itemBytes: number;
  /** A batch (POST …/batch): up to 1000 items. */
  readonly batchBytes: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { itemBytes: 1024 * 1024, batchBytes: 16 * 1024 * 1024 };

/** `application/json` or a `+json` type (`application/problem+json`), with any parameters. */
const JSON_CONTENT_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * Middleware for a route that reads a JSON body (`createRoute({ middleware })`), run before its validators:
 * a body sent as anything but JSON is a 400 `invalid_json`; one over `maxBytes` is a 413 `payload_too_large`
 * (with `limitBytes`), told from Content-Length up front or counted while a chunked body streams in — either
 * way before any of it is parsed. Routes that take no body need neither: nothing on them reads it.
 */
export function jsonBodyGuards(maxBytes: number): MiddlewareHandler<AppEnv>[] {
  return [
    async (c, next) => {
      if (!JSON_CONTENT_TYPE.test(c.req.header('content-type') ?? '')) {
        throw new ShardlineError('invalid_json', 'send the body as JSON with Content-Type: application/json');
      }
      await next();
    },
    bodyLimit({
      maxSize: maxBytes,
      onError: () => {
        throw new ShardlineError('payload_too_large', `the request body is over ${maxBytes} bytes`, {
          limitBytes: maxBytes,
        });
      },
    }),
  ];
}
