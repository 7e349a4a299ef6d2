import { autopilotStep, type StepRecord } from '../autopilot/step';
import type { BundledService } from './bundled-service';

/**
 * One autopilot step per collection with "autopilot", in a scheduled invocation (Lambda's `Schedule` event, a
 * Worker's Cron Trigger). A reshard stops at a safe point once `budgetMs` has passed; the next invocation goes on
 * from there. Every step is one JSON line; a failed step is logged and the other collections still run.
 */
export async function scheduledAutopilot(
  bundled: BundledService,
  budgetMs: number,
): Promise<{ steps: StepRecord[]; failed: string[] }> {
  const log = (fields: object) => console.log(JSON.stringify(fields));
  const { dynamo, maps, collections } = bundled.service;
  const steps: StepRecord[] = [];
  const failed: string[] = [];
  const opted = collections.filter((collection) => collection.autopilot);
  if (opted.length === 0) return { steps, failed };
  await bundled.service.ready();
  const table = { dynamo, maps, settings: bundled.settings };
  const stop = AbortSignal.timeout(budgetMs);
  const report = (fields: object) => log({ msg: 'shardline.autopilot', ...fields });
  for (const collection of opted) {
    if (stop.aborted) {
      // Out of time: starting a reshard now would only stop it at once. The next invocation comes.
      report({ collection: collection.name, skipped: 'out of time' });
      continue;
    }
    try {
      const reshard = { msg: 'shardline.autopilot.reshard', collection: collection.name };
      const options = { dryRun: false, stop, log: (line: string) => log({ ...reshard, line }) };
      const record = await autopilotStep(table, collection, collection.autopilot!, options);
      report(record);
      steps.push(record);
    } catch (error) {
      failed.push(collection.name);
      report({ collection: collection.name, error: (error as Error).message });
    }
  }
  return { steps, failed };
}

/** EventBridge's scheduled event (SAM's `Schedule` event, a rule's `rate()` or `cron()`), as Lambda receives it. */
export function isScheduledEvent(event: unknown): boolean {
  if (typeof event !== 'object' || event === null) return false;
  const { source, 'detail-type': detailType } = event as Record<string, unknown>;
  return source === 'aws.events' && detailType === 'Scheduled Event';
}
