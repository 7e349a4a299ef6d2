import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { unmarshallOptions } from '@aws-sdk/util-dynamodb';

/**
 * How every door reads DynamoDB's numbers, stream images included: as `NumberValue`, the exact decimal
 * text, never as a double that could round them (./values turns them into core's `ExactNumber`).
 */
export const EXACT_NUMBERS: Readonly<unmarshallOptions> = Object.freeze({ wrapNumbers: true });

/**
 * The one document client of shardline, for the application's items and shardline's own records. A JS
 * number written must lie within ±2^53 (the SDK refuses a larger one): shardline's own records hold small
 * integers and write their 15-digit numeric keys as `NumberValue`s.
 */
export function exactDocumentClient(raw: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(raw, {
    marshallOptions: { removeUndefinedValues: true },
    // A copy: the client's commands set options of their own on the object it is given.
    unmarshallOptions: { ...EXACT_NUMBERS },
  });
}
