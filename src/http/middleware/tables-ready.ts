import type { MiddlewareHandler } from 'hono';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';
import { gateRefusal } from '../errors';

/**
 * The Worker's and the Lambda's gate: their tables are prepared on the first request that needs them. Until `ready`
 * resolves, such a request gets a 503 and the next one tries again; routes marked `tableless` answer meanwhile.
 * `ready` shares no promise between requests: a Worker may not await I/O that another request started.
 */
export function tablesReady(ready: () => Promise<void>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('tableless')) return next();
    try {
      await ready();
    } catch (error) {
      // The cause (table names, settings) is for the operator's log, not for clients.
      console.error('shardline: tables not ready', error);
      return gateRefusal(new ShardlineError('unavailable', 'the table is not ready (the service log says why)'));
    }
    await next();
  };
}
