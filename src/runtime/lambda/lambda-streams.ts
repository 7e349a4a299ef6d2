import { ChangeIndexer, poisonLine } from '../../service/change-indexer';
import { isReservedItem } from '../../store/reserved-keys';
import { changeOfRecord, type StreamRecordLike, type TableChange } from '../../store/stream-records';
import type { BundledService } from '../bundled-service';

/** Lambda's context, as far as shardline uses it. */
export interface InvocationContext {
  getRemainingTimeInMillis?: () => number;
}

/** Time kept back from the function's own timeout, to answer before Lambda gives up on the batch. */
const ANSWER_MARGIN_MS = 2000;

/**
 * The DynamoDB Streams handler: indexes what other applications wrote (as `npm run follow` does) and reports as
 * batch item failures only records that failed transiently. Unindexable members and records that are not Streams
 * records are logged and never fail the batch: one bad item must not block its shard of the stream. The answer is
 * what Lambda reads back with `FunctionResponseTypes: [ReportBatchItemFailures]`.
 */
export function streamsHandler({ service, settings }: BundledService) {
  const indexer = new ChangeIndexer({
    collections: service.collections,
    maps: service.maps,
    writer: service.dynamo.items,
    isReserved: isReservedItem,
    onPoison: (report) => console.error(poisonLine(report)),
    changeDeadlineMs: settings.requestTimeoutMs,
  });
  return async (event: { Records: StreamRecordLike[] }, context?: InvocationContext) => {
    const changes: TableChange[] = [];
    for (const record of event.Records) {
      try {
        changes.push(changeOfRecord(record, undefined));
      } catch (error) {
        console.error(
          JSON.stringify({
            level: 'warn',
            event: 'shardline.unreadable_record',
            sequence: record.dynamodb?.SequenceNumber,
            reason: (error as Error).message,
          }),
        );
      }
    }
    const remaining = context?.getRemainingTimeInMillis?.();
    const deadline = remaining === undefined ? undefined : Date.now() + remaining - ANSWER_MARGIN_MS;
    const result = await indexer.applyBatch(changes, deadline === undefined ? {} : { deadline });
    if (result.error) {
      console.error(`shardline: ${result.failed.length} stream records to retry: ${result.error.message}`);
    }
    return { batchItemFailures: result.failed.map((sequence) => ({ itemIdentifier: sequence })) };
  };
}
