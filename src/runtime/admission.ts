import { AdmissionLimit } from '../core/admission-limit';
import { ShardlineError } from '../core/errors';
import { errorBodyText, errorStatus } from '../http/errors';

/** Probes answer even when work is shed: they are never counted against, nor queued behind, the limit. */
const BYPASS = new Set(['/healthz', '/metrics']);
const LISTING = /^\/collections\/([^/]+)\/items\/?$/;

/**
 * Wraps the Node server's fetch with adaptive admission control: a request weighs the DynamoDB work it
 * plans (a listing one unit per shard, anything else one); past the limit it gets a 503 `overloaded`
 * with `Retry-After`, after `shedPauseMs`. The pause paces clients that ignore Retry-After and ask
 * again at once: a thousand connections doing that would spend the cores on refusals (`npm run
 * bench:overload`, docs/performance.md), while a refusal still comes long before any listing would have.
 */
export function admitted<Rest extends unknown[]>(
  fetch: (request: Request, ...rest: Rest) => Response | Promise<Response>,
  /** Shards of the map a collection is read by now (a reshard changes it), when known. */
  shardCountOf: (collection: string) => number | undefined,
  shedPauseMs: number,
  limit = new AdmissionLimit(),
): (request: Request, ...rest: Rest) => Promise<Response> {
  return async (request, ...rest) => {
    const path = new URL(request.url).pathname;
    if (BYPASS.has(path)) return fetch(request, ...rest);
    const listing = request.method === 'GET' ? LISTING.exec(path) : null;
    const weight = listing ? (shardCountOf(collectionName(listing[1]!)) ?? 1) : 1;
    const admission = limit.tryAcquire(weight);
    if (!admission) {
      if (shedPauseMs > 0) await new Promise((resume) => setTimeout(resume, shedPauseMs));
      return overloaded();
    }
    const started = performance.now();
    try {
      return await fetch(request, ...rest);
    } finally {
      limit.release(admission, performance.now() - started);
    }
  };
}

/** The collection a listing path names; a malformed escape weighs 1 here and is the app's 400 to give. */
function collectionName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function overloaded(): Response {
  const error = new ShardlineError('overloaded', 'the server is at its concurrency limit; retry later');
  return new Response(errorBodyText(error), {
    status: errorStatus(error.code),
    headers: { 'content-type': 'application/json', 'retry-after': '1' },
  });
}
