import { ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JsonObject } from '../core/item';
import { type Condition, ExpressionBuilder } from './conditions';
import { recordFromSdk, recordToSdk } from './values';
import { isConditionFailed } from './dynamo-errors';

/** One page of one segment of a parallel scan. */
export interface ScanRequest {
  readonly table: string;
  /** Scan this index instead of the table. */
  readonly index?: string;
  readonly segment: number;
  readonly segments: number;
  /** The segment's previous page's LastEvaluatedKey. */
  readonly after?: Record<string, unknown>;
  /** Items DynamoDB evaluates for this page (before the filter). */
  readonly limit: number;
  /** Keep only items meeting at least one of these (DynamoDB still reads, and bills, the rest). */
  readonly anyOf?: readonly Condition[];
  /** Attributes to return; all when unset. */
  readonly attributes?: readonly string[];
  /** Tables only. */
  readonly consistent?: boolean;
}

export interface ScanPage {
  readonly items: JsonObject[];
  /** Items DynamoDB read for the page, before the filter. */
  readonly scanned: number;
  /** Undefined when the segment is done. */
  readonly next?: Record<string, unknown>;
}

/** A change to the attributes of one existing item, made only if `when` holds. */
export interface AttributeUpdate {
  readonly table: string;
  readonly key: JsonObject;
  readonly set?: JsonObject;
  readonly remove?: readonly string[];
  readonly when: readonly Condition[];
}

export interface UpdateOutcome {
  /** False when a condition did not hold (another write came first, or the item is gone). */
  readonly applied: boolean;
  /** Write units DynamoDB reports for the update, indexes included (when it reports them). */
  readonly writeUnits?: number;
}

export async function sendScan(
  doc: DynamoDBDocumentClient,
  request: ScanRequest,
  signal: AbortSignal | undefined,
): Promise<ScanPage> {
  const builder = new ExpressionBuilder();
  const filter = request.anyOf && request.anyOf.length > 0 ? builder.join(request.anyOf, 'OR') : undefined;
  const projection = request.attributes?.map((attribute) => builder.name(attribute)).join(', ');
  const scan = new ScanCommand({
    TableName: request.table,
    ...(request.index && { IndexName: request.index }),
    Segment: request.segment,
    TotalSegments: request.segments,
    Limit: request.limit,
    ...(request.after && { ExclusiveStartKey: request.after }),
    ...(request.consistent && { ConsistentRead: true }),
    ...(filter && { FilterExpression: filter }),
    ...(projection && { ProjectionExpression: projection }),
    ...builder.placeholders(),
  });
  const response = await doc.send(scan, { abortSignal: signal });
  return {
    items: (response.Items ?? []).map(recordFromSdk),
    scanned: response.ScannedCount ?? response.Count ?? 0,
    ...(response.LastEvaluatedKey && { next: response.LastEvaluatedKey }),
  };
}

export async function sendUpdate(
  doc: DynamoDBDocumentClient,
  update: AttributeUpdate,
  signal: AbortSignal | undefined,
): Promise<UpdateOutcome> {
  const builder = new ExpressionBuilder();
  try {
    const response = await doc.send(
      new UpdateCommand({
        TableName: update.table,
        Key: recordToSdk(update.key),
        UpdateExpression: builder.update(update.set ?? {}, update.remove),
        ConditionExpression: builder.join(update.when, 'AND'),
        ...builder.placeholders(),
        ReturnConsumedCapacity: 'TOTAL',
      }),
      { abortSignal: signal },
    );
    const units = response.ConsumedCapacity?.CapacityUnits;
    return { applied: true, ...(units !== undefined && { writeUnits: units }) };
  } catch (error) {
    if (isConditionFailed(error)) return { applied: false };
    throw error;
  }
}
