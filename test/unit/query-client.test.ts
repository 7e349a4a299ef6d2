import { DynamoDBClient, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { createQueryClient, sendQuery } from '../../src/store/query-client';

interface Sent {
  readonly target: string | undefined;
  readonly signal: AbortSignal | undefined;
}

/** A request handler answering every call with `status` and `body`, recording what it was given. */
function cannedHandler(status: number, body: unknown, sent: Sent[]) {
  return {
    handle: async (request: { headers: Record<string, string> }, options?: { abortSignal?: AbortSignal }) => {
      sent.push({ target: request.headers['x-amz-target'], signal: options?.abortSignal });
      return {
        response: {
          statusCode: status,
          headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'r-1' },
          body: new TextEncoder().encode(JSON.stringify(body)),
        },
      };
    },
  };
}

function queryClient(status: number, body: unknown, sent: Sent[]) {
  const config = {
    region: 'us-east-1',
    endpoint: 'http://localhost:1',
    credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    maxAttempts: 1,
  };
  const handler = new DynamoDBClient({ ...config, requestHandler: cannedHandler(status, body, sent) as never });
  return createQueryClient(config, handler.config.requestHandler);
}

const input = {
  TableName: 't',
  KeyConditionExpression: '#s = :s',
  ExpressionAttributeNames: { '#s': 'shard' },
  ExpressionAttributeValues: { ':s': { S: 'a#0' } },
};

describe('the listing query client', () => {
  it("hands over DynamoDB's JSON as it came: numbers as text, binary as base64, no schema walk", async () => {
    const sent: Sent[] = [];
    const answer = {
      Items: [{ n: { N: '12345678901234567890.10' }, b: { B: 'AAE=' } }],
      LastEvaluatedKey: { shard: { S: 'a#0' } },
      ConsumedCapacity: { CapacityUnits: 0.5 },
    };
    const output = await sendQuery(queryClient(200, answer, sent), input, undefined);
    // The SDK's own reader would have made `b` bytes: base64 text proves its walk was skipped.
    expect(output.Items).toEqual(answer.Items);
    expect(output.LastEvaluatedKey).toEqual(answer.LastEvaluatedKey);
    expect(output.ConsumedCapacity?.CapacityUnits).toBe(0.5);
    expect(sent.map((s) => s.target)).toEqual(['DynamoDB_20120810.Query']);
  });

  it("keeps the SDK's typed errors, so throttles are still told apart", async () => {
    const throttled = {
      __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
      message: 'slow down',
    };
    const client = queryClient(400, throttled, []);
    await expect(sendQuery(client, input, undefined)).rejects.toBeInstanceOf(ProvisionedThroughputExceededException);
  });

  it('gives each call its own abort signal, though its middleware is resolved once', async () => {
    const sent: Sent[] = [];
    const client = queryClient(200, { Items: [] }, sent);
    const first = new AbortController();
    const second = new AbortController();
    await sendQuery(client, input, first.signal);
    await sendQuery(client, input, second.signal);
    await sendQuery(client, input, undefined);
    expect(sent.map((s) => s.signal)).toEqual([first.signal, second.signal, undefined]);
  });
});
