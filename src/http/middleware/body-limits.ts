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
/** Routes that take no body still must not be made to read a large one. */
const OTHER_BYTES = 64 * 1024;

/**
 * Per-route request body limits, enforced while the body streams in (and up front
 * from Content-Length): over the limit is a 413 JSON error before any parsing.
 */
export function bodyLimits(limits: BodyLimits): MiddlewareHandler<AppEnv> {
  const make = (maxSize: number): MiddlewareHandler<AppEnv> =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new ShardlineError('payload_too_large', `the request body is over ${maxSize} bytes`, {
          limitBytes: maxSize,
        });
      },
    });
  const batch = make(limits.batchBytes);
  const item = make(limits.itemBytes);
  const other = make(OTHER_BYTES);
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    if (c.req.method === 'POST' && c.req.path.endsWith('/items/batch')) return batch(c, next);
    if (c.req.method === 'PUT' && c.req.path.endsWith('/items')) return item(c, next);
    return other(c, next);
  };
}
