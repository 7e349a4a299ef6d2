import type { MiddlewareHandler } from 'hono';
import { AdmissionLimit } from '../../core/admission-limit';
import { ShardlineError } from '../../core/errors';
import type { AppEnv } from '../env';
import { gateRefusal } from '../errors';

/** What the Node server sheds load by (the Worker and Lambda have their platform's limits instead). */
export interface AdmissionDeps {
  /** Shards of the map a collection is read by now (a reshard changes it), when known. */
  readonly shardCountOf: (collection: string) => number | undefined;
  /** How long a refusal is held before it is sent (SHED_PAUSE_MS). */
  readonly shedPauseMs: number;
  /** The limit (tests give a small one); DEFAULT_ADMISSION's otherwise. */
  readonly limit?: AdmissionLimit;
}

/**
 * Adaptive admission control: a request weighs the DynamoDB work it plans (a listing marked `listed` one unit per
 * shard, anything else one); past the limit it gets a 503 `overloaded` after `shedPauseMs`, which paces clients that
 * ignore Retry-After (else their refusals would spend the cores: docs/performance.md). Probes are never counted.
 */
export function admission(deps: AdmissionDeps): MiddlewareHandler<AppEnv> {
  const limit = deps.limit ?? new AdmissionLimit();
  return async (c, next) => {
    if (c.get('probe')) return next();
    const listed = c.get('listed');
    const weight = listed === undefined ? 1 : (deps.shardCountOf(listed) ?? 1);
    const admitted = limit.tryAcquire(weight);
    if (!admitted) {
      if (deps.shedPauseMs > 0) await new Promise((resume) => setTimeout(resume, deps.shedPauseMs));
      return gateRefusal(new ShardlineError('overloaded', 'the server is at its concurrency limit; retry later'));
    }
    const started = performance.now();
    try {
      await next();
    } finally {
      limit.release(admitted, performance.now() - started);
    }
  };
}

/** Set on the listing's route: the collection a GET reads (a malformed escape is the route's 400 to give). */
export const markListed: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === 'GET') c.set('listed', c.req.param('collection'));
  await next();
};
