import { handle } from 'hono/aws-lambda';
import bundle from 'shardline:config-bundle';
import { directoryDocsAssets } from '../../http/docs/file-assets';
import { isStreamEvent } from '../../store/stream-records';
import { createBundledService } from '../bundled-service';
import { emfRecorder } from './emf-metrics';
import { type InvocationContext, streamsHandler } from './lambda-streams';
import { isScheduledEvent, scheduledAutopilot } from '../scheduled-autopilot';

/**
 * AWS Lambda entry, built once per execution environment at init: one handler for API Gateway and Function URL
 * events, the table's Streams events (docs/other-writers.md) and scheduled autopilot steps (docs/autopilot.md).
 */
const bundled = createBundledService(process.env, bundle, {
  docsAssets: directoryDocsAssets(new URL('./docs-assets/', import.meta.url)),
  requireCredentials: false,
  metrics: () => ({ recorder: emfRecorder() }),
});

const http = handle(bundled.app);
const streams = streamsHandler(bundled);

export const handler = (event: Parameters<typeof http>[0], context: Parameters<typeof http>[1]) => {
  if (isScheduledEvent(event)) return scheduledAutopilot(bundled, autopilotBudget(context));
  return isStreamEvent(event) ? streams(event, context) : http(event, context);
};

/** The invocation's time, less a margin for the reshard to reach a safe point and release its lease. */
function autopilotBudget(context: InvocationContext | undefined): number {
  const remaining = context?.getRemainingTimeInMillis?.() ?? 60_000;
  return Math.max(1000, remaining - Math.min(30_000, remaining / 4));
}
