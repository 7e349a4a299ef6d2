import type { DynamoDBClient, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import type { AttributeJson } from './dynamo-json';
import { DynamoSender } from './dynamo-sender';

/** A Query's answer as DynamoDB sends it: items in its wire JSON, not yet converted. */
export interface RawQueryOutput {
  readonly Items?: Readonly<Record<string, AttributeJson>>[];
  readonly LastEvaluatedKey?: Readonly<Record<string, AttributeJson>>;
  readonly ConsumedCapacity?: { readonly CapacityUnits?: number };
}

/**
 * Sends listing pages' shard queries by the lean path (./dynamo-sender): a page sends up to a few
 * dozen queries, and the SDK's pipeline and the document client's second walk cost several times
 * this path's CPU a query (docs/performance.md).
 */
export class QuerySender {
  private readonly sender: DynamoSender;

  constructor(client: DynamoDBClient | DynamoSender) {
    this.sender = client instanceof DynamoSender ? client : new DynamoSender(client);
  }

  async send(input: QueryCommandInput, signal: AbortSignal | undefined): Promise<RawQueryOutput> {
    return (await this.sender.send('Query', input, signal)) as RawQueryOutput;
  }
}
