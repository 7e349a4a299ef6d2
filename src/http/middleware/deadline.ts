import { setMaxListeners } from 'node:events';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

/**
 * Gives each request its CallContext: a deadline and a signal that aborts at it or when the client goes away. A
 * plain controller kept alive by its own timer: `AbortSignal.any` over `AbortSignal.timeout` is held weakly and
 * may never fire.
 */
export function requestDeadline(timeoutMs: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const controller = new AbortController();
    // A batch's chunks and a listing's shard queries all listen on it at once.
    setMaxListeners(0, controller.signal);
    const deadline = Date.now() + timeoutMs;
    const timer = setTimeout(
      () => controller.abort(new DOMException('the request deadline passed', 'TimeoutError')),
      timeoutMs,
    );
    const raw = c.req.raw.signal;
    const onClientGone = (): void => controller.abort(raw.reason);
    if (raw.aborted) controller.abort(raw.reason);
    else raw.addEventListener('abort', onClientGone, { once: true });
    const tally = c.get('tally');
    c.set('call', {
      signal: controller.signal,
      deadline,
      // The item routes answer with it (x-consumed-rcu, x-consumed-wcu).
      capacity: { read: 0, write: 0 },
      ...(tally && { observer: tally, tally }),
    });
    try {
      await next();
    } finally {
      clearTimeout(timer);
      raw.removeEventListener('abort', onClientGone);
    }
  };
}
