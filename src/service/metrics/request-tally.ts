import type { CallContext, RetryObserver, RetryOperation, RetryReason } from '../../store/retry';
import { NO_METRICS, type MetricsRecorder } from './recorder';

/**
 * What one request did, for its log line, and the service layers' door to the process's
 * recorder: it travels in the request's context (and as the store's retry observer), so the
 * listing executor, the write path and the retry layer find it without new parameters.
 */
export class RequestTally implements RetryObserver {
  shardQueries = 0;
  itemsRead = 0;
  itemsWritten = 0;
  retries = 0;

  constructor(readonly recorder: MetricsRecorder = NO_METRICS) {}

  retried(operation: RetryOperation, reason: RetryReason): void {
    this.retries++;
    this.recorder.retried(operation, reason);
  }
}

/** A request's CallContext as the service takes it: with the request's tally, when it keeps one. */
export interface RequestContext extends CallContext {
  readonly tally?: RequestTally;
}

/** Whom to tell about one shard's calls: the request and, for throttles, the shard's counter. */
export function shardObserver(tally: RequestTally, collection: string, shard: number): RetryObserver {
  return {
    retried(operation, reason) {
      tally.retried(operation, reason);
      if (reason === 'throttled' || reason === 'unprocessed') tally.recorder.shardThrottled(collection, shard);
    },
    hedged(won) {
      tally.recorder.hedged(collection, won);
    },
  };
}
