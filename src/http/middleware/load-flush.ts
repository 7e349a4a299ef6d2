import type { ExecutionContext, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

/** The part of the fleet load recorder (src/service/metrics/load-recorder.ts) a runtime drives. */
export interface LoadFlush {
  /** Whether a minute has ended since the last flush. */
  due(): boolean;
  flush(): Promise<unknown>;
}

/**
 * The fleet's load where no timer runs between requests: the ended minute is written after an answer, by a Worker
 * in waitUntil, by Lambda (no waitUntil) before its answer.
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
