import { invalidRequest, ShardlineError } from '../core/errors';
import type { JsonObject } from '../core/item';
import { type AttributeJson, recordFromDynamoJson } from './dynamo-json';

// DynamoDB Streams records from `GetRecords` answers (binary as bytes, times as `Date`) and Lambda events
// (JSON: binary as base64, epoch seconds, `eventSourceARN`).

/** One change of one table item, as a stream delivers it. */
export interface TableChange {
  readonly table: string;
  /** A put (INSERT or MODIFY: `image` is the item now) or a removal (nothing to index). */
  readonly kind: 'put' | 'remove';
  readonly key: JsonObject;
  readonly image?: JsonObject;
  /** In its stream shard (Lambda's batch item identifier). */
  readonly sequence: string;
  /** When DynamoDB made the change (epoch ms; DynamoDB rounds it), for the follower's lag. */
  readonly changedAt?: number;
}

type Image = Record<string, AttributeJson>;

/** Only the fields shardline reads. */
export interface StreamRecordLike {
  readonly eventName?: string;
  readonly eventSource?: string;
  readonly eventSourceARN?: string;
  readonly dynamodb?: {
    readonly Keys?: Image;
    readonly NewImage?: Image;
    readonly SequenceNumber?: string;
    readonly ApproximateCreationDateTime?: Date | number | string;
  };
}

/** Whether a Lambda event is a DynamoDB Streams batch (else it is an HTTP event). */
export function isStreamEvent(event: unknown): event is { Records: StreamRecordLike[] } {
  const records = (event as { Records?: unknown } | undefined)?.Records;
  return Array.isArray(records) && (records[0] as StreamRecordLike | undefined)?.eventSource === 'aws:dynamodb';
}

/** The table a stream ARN belongs to (`arn:aws:dynamodb:region:account:table/NAME/stream/LABEL`). */
export function tableOfStreamArn(arn: string | undefined): string | undefined {
  return arn === undefined ? undefined : /:table\/([^/]+)\/stream\//.exec(arn)?.[1];
}

/**
 * The change one record describes; `table` when the record does not name it (GetRecords
 * answers do not). Throws for a record without keys or sequence number (not a Streams record).
 */
export function changeOfRecord(record: StreamRecordLike, table: string | undefined): TableChange {
  const data = record.dynamodb;
  const named = tableOfStreamArn(record.eventSourceARN) ?? table;
  if (!data?.Keys || !data.SequenceNumber || !named) throw invalidRequest('not a DynamoDB Streams record');
  const removed = record.eventName === 'REMOVE';
  if (!removed && !data.NewImage) {
    throw new ShardlineError(
      'unavailable',
      'the stream has no new images: its view type must be NEW_IMAGE or NEW_AND_OLD_IMAGES',
    );
  }
  const changedAt = timeOf(data.ApproximateCreationDateTime);
  return {
    table: named,
    kind: removed ? 'remove' : 'put',
    // Images read as items do (exact numbers, sets; binary as bytes or base64): a typed order sees a stream's
    // number as the number it is.
    key: recordFromDynamoJson(data.Keys),
    ...(!removed && data.NewImage && { image: recordFromDynamoJson(data.NewImage) }),
    sequence: data.SequenceNumber,
    ...(changedAt !== undefined && { changedAt }),
  };
}

function timeOf(value: Date | number | string | undefined): number | undefined {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value * 1000; // Lambda events: epoch seconds
  if (typeof value === 'string') return Date.parse(value);
  return undefined;
}
