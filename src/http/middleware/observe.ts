import type { MiddlewareHandler } from 'hono';
import { RequestTally } from '../../service/metrics/request-tally';
import type { AppEnv, LogLevel, ObservabilityOptions } from '../env';
import { errorStatus } from '../errors';

const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2, off: 3 };
const CLIENT_GONE = errorStatus('client_closed');

/** Gives each request a RequestTally; once answered, records its latency by route pattern and logs its JSON line. */
export function observeRequests(options: ObservabilityOptions): MiddlewareHandler<AppEnv> {
  const { recorder, requestLog } = options;
  const threshold = RANK[requestLog?.level ?? 'off'];
  return async (c, next) => {
    const started = performance.now();
    const tally = new RequestTally(recorder);
    c.set('tally', tally);
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      const status = c.res.status;
      const pattern = c.req.routePath;
      const route = pattern === '*' || pattern === '/*' ? 'unmatched' : pattern;
      recorder.requestDone({ route, method: c.req.method, status, seconds: ms / 1000 });
      // A client that went away (499) is no fault of the client's request nor of the service.
      const level: LogLevel = status >= 500 ? 'error' : status >= 400 && status !== CLIENT_GONE ? 'warn' : 'info';
      if (requestLog && RANK[level] >= threshold) {
        const caller = c.get('caller');
        requestLog.write(
          JSON.stringify({
            time: new Date().toISOString(),
            level,
            msg: 'request',
            requestId: c.get('requestId'),
            method: c.req.method,
            route,
            path: c.req.path,
            status,
            durationMs: Math.round(ms * 100) / 100,
            shardQueries: tally.shardQueries,
            itemsRead: tally.itemsRead,
            itemsWritten: tally.itemsWritten,
            retries: tally.retries,
            ...(caller !== undefined && { caller }),
          }),
        );
      }
    }
  };
}
