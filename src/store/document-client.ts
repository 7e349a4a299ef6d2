import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { unmarshallOptions } from '@aws-sdk/util-dynamodb';

/**
 * How every door reads DynamoDB's numbers: as `NumberValue`, the exact decimal text, never as a
 * double that could round them (./values turns them into core's `ExactNumber`). Stream images
 * (./stream-records) read the same way, so a follower sees the number the table holds.
 */
export const EXACT_NUMBERS: Readonly<unmarshallOptions> = Object.freeze({ wrapNumbers: true });

/**
 * The one document client of shardline, for every door's items: the application's (the store,
 * scans and conditional updates) and shardline's own (shard maps, checkpoints, load records, the
 * autopilot's log). Numbers read exactly (`EXACT_NUMBERS`); a JS number written must lie within
 * ±2^53 (the SDK refuses a larger one, which no double holds to the unit: write a `NumberValue`).
 * shardline's own records hold small integers (revisions, versions, TTLs, sort keys below 10^15)
 * and write their 15-digit numeric keys as `NumberValue`s, so no door needs looser numbers.
 */
export function exactDocumentClient(raw: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true },
    // A copy: the client's commands set options of their own on the object it is given.
    unmarshallOptions: { ...EXACT_NUMBERS },
  });
}
