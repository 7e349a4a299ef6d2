import { AwsJson1_0Protocol } from '@aws-sdk/core/protocols';
import type { AttributeJson } from './dynamo-json';

/** A Query's answer as DynamoDB sends it: items in its wire JSON, not yet converted. */
export interface RawQueryOutput {
  readonly Items?: Readonly<Record<string, AttributeJson>>[];
  readonly LastEvaluatedKey?: Readonly<Record<string, AttributeJson>>;
  readonly ConsumedCapacity?: { readonly CapacityUnits?: number };
}

type Operation = Parameters<AwsJson1_0Protocol['deserializeResponse']>[0];
type Context = Parameters<AwsJson1_0Protocol['deserializeResponse']>[1];
type Response = Parameters<AwsJson1_0Protocol['deserializeResponse']>[2];

/**
 * DynamoDB's JSON protocol, except that a successful Query's body is handed over as the
 * service wrote it (`JSON.parse`, nothing more). The SDK's reader walks every attribute value
 * against its schema, and the document client then walks it again to unmarshall: two thirds of
 * a listing page's SDK time, for items shardline converts once more itself (DESIGN §13). Here the
 * store converts the wire JSON once (`recordFromDynamoJson`). Item values in DynamoDB's JSON are
 * strings (numbers too), so `JSON.parse` loses nothing. Errors, and every other operation, take
 * the SDK's own path: throttles and missing tables stay the SDK's typed errors.
 *
 * Only the listing's query client uses it (`createQueryClient`): its answers have the wire
 * shape (binary as base64 text), which nothing else in the store expects.
 */
export class RawQueryProtocol extends AwsJson1_0Protocol {
  override async deserializeResponse<Output>(operation: Operation, context: Context, response: Response) {
    if (response.statusCode >= 300 || !isQuery(operation)) {
      return super.deserializeResponse(operation, context, response) as Promise<Output>;
    }
    const body: unknown = response.body;
    const bytes = body instanceof Uint8Array ? body : body ? await context.streamCollector(body) : new Uint8Array();
    const output = (bytes.byteLength > 0 ? JSON.parse(new TextDecoder().decode(bytes)) : {}) as Record<string, unknown>;
    output.$metadata = this.deserializeMetadata(response);
    return output as Output;
  }
}

/** The operation's name is `Query`, or its shape id `com.amazonaws.dynamodb#Query`. */
function isQuery(operation: Operation): boolean {
  return operation.name === 'Query' || operation.name.endsWith('#Query');
}
