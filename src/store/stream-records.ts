import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { invalidRequest, ShardlineError } from '../core/errors';
import type { JsonObject } from '../core/item';
import { EXACT_NUMBERS } from './document-client';
import { bytesOf } from './dynamo-json';
import { recordFromSdk } from './values';

/**
 * DynamoDB Streams records from either source: `GetRecords` answers (the SDK's shape: binary as
 * bytes, times as `Date`) and Lambda events (JSON: binary as base64, epoch seconds, `eventSourceARN`).
 */

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

type Image = Record<string, unknown>;

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
  // Images read as items do (exact numbers, sets), so a typed order sees a stream's number as the number it is.
  const read = (image: Image) =>
    recordFromSdk(unmarshall(fromJsonShape(image) as Record<string, AttributeValue>, EXACT_NUMBERS));
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
    key: read(data.Keys),
    ...(!removed && data.NewImage && { image: read(data.NewImage) }),
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

/** Lambda events carry binary values (B, BS, inside maps and lists too) as base64 text; the SDK's shape has bytes. */
function fromJsonShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromJsonShape);
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    if (name === 'B' && typeof inner === 'string') out[name] = bytesOf(inner);
    else if (name === 'BS' && Array.isArray(inner))
      out[name] = inner.map((b) => (typeof b === 'string' ? bytesOf(b) : b));
    else out[name] = fromJsonShape(inner);
  }
  return out;
}
