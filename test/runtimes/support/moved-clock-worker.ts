import type { ExecutionContext } from 'hono';
import worker, { type WorkerEnv } from '../../../src/runtime/worker/main';
import { moveDateNow, NEXT_MINUTE_PATH } from './moved-clock';

const clock = moveDateNow();

/**
 * The Worker's entry (src/runtime/worker/main.ts) behind a clock the test moves, so that a test ends its
 * load minutes at once rather than living through them: POST NEXT_MINUTE_PATH?minuteMs=… ends one.
 */
export default {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== NEXT_MINUTE_PATH) return worker.fetch(request, env, ctx);
    return Promise.resolve(Response.json({ now: clock.nextMinute(Number(url.searchParams.get('minuteMs'))) }));
  },
  scheduled: worker.scheduled,
};
