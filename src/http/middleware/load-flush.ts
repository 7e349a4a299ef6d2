import type { ExecutionContext, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

/** The part of the fleet load recorder (src/service/metrics/load-recorder.ts) a runtime drives. */
export interface LoadFlush {
  /** Whether a minute has ended since the last flush. */
  due(): boolean;
  flush(): Promise<unknown>;
}

/**
 * The fleet's load (docs/autopilot.md) where no timer runs between requests: after an answer, the ended minute is
 * written. A Worker writes it after answering (waitUntil); Lambda has no waitUntil, so the invocation that finds a
 * minute ended writes it before its answer. The Node server flushes on a timer instead.
 */
export function flushLoadAfterAnswers(load: LoadFlush): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (!load.due()) return;
    const flushing = load.flush();
    const context = executionContext(c);
    if (context) context.waitUntil(flushing);
    else await flushing;
  };
}

/** The Worker's ExecutionContext (waitUntil) when there is one; Lambda has none and Hono throws on access. */
function executionContext(c: Parameters<MiddlewareHandler<AppEnv>>[0]): ExecutionContext | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
