import { DynamoDBClient, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DynamoSender } from '../../../src/store/dynamo-sender';

interface Sent {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly signal: AbortSignal | undefined;
}

interface Request {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  headers: Record<string, string>;
  body: string;
}

type Payload = (json: string) => unknown;
const asBytes: Payload = (json) => new TextEncoder().encode(json);

/**
 * A client whose request handler answers every call with `status` and `body` (as `payload` makes the
 * response body of its JSON), recording each request.
 */
function client(status: number, body: unknown, sent: Sent[], endpoint?: string, payload = asBytes) {
  const handler = {
    handle: async (request: Request, options?: { abortSignal?: AbortSignal }) => {
      const port = request.port === undefined ? '' : `:${request.port}`;
      const url = `${request.protocol}//${request.hostname}${port}${request.path}`;
      sent.push({ url, headers: request.headers, body: request.body, signal: options?.abortSignal });
      const headers = { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'r-1' };
      return { response: { statusCode: status, headers, body: payload(JSON.stringify(body)) } };
    },
  };
  return new DynamoDBClient({
    region: 'eu-west-1',
    ...(endpoint && { endpoint }),
    credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'token' },
    maxAttempts: 1,
    requestHandler: handler as never,
  });
}

const input = {
  TableName: 't',
  KeyConditionExpression: '#s = :s',
  ExpressionAttributeNames: { '#s': 'shard' },
  ExpressionAttributeValues: { ':s': { S: 'a#0' } },
};

describe('DynamoSender', () => {
  it("sends a signed Query to the client's endpoint and hands DynamoDB's JSON over as it came", async () => {
    const sent: Sent[] = [];
    const answer = {
      Items: [{ n: { N: '12345678901234567890.10' }, b: { B: 'AAE=' } }],
      LastEvaluatedKey: { shard: { S: 'a#0' } },
      ConsumedCapacity: { CapacityUnits: 0.5 },
    };
    const output = await new DynamoSender(client(200, answer, sent, 'http://localhost:8123')).send(
      'Query',
      input,
      undefined,
    );
    // The SDK's own reader would have made `b` bytes: base64 text shows the answer was not walked.
    expect(output).toEqual(answer);
    const [request] = sent;
    expect(request?.url).toBe('http://localhost:8123/');
    expect(JSON.parse(request!.body)).toEqual(input);
    expect(request?.headers).toMatchObject({
      host: 'localhost:8123',
      'x-amz-target': 'DynamoDB_20120810.Query',
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-security-token': 'token',
    });
    expect(request?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-west-1\/dynamodb\//);
  });

  it("finds DynamoDB's regional endpoint by the SDK's rules when none is configured", async () => {
    const sent: Sent[] = [];
    await new DynamoSender(client(200, { Items: [] }, sent)).send('Query', input, undefined);
    expect(sent[0]?.url).toBe('https://dynamodb.eu-west-1.amazonaws.com/');
  });

  it("throws the SDK's typed errors, so throttles are still told apart", async () => {
    const throttled = {
      __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
      message: 'slow down',
    };
    const sender = new DynamoSender(client(400, throttled, [], 'http://localhost:8123'));
    const error = await sender.send('Query', input, undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProvisionedThroughputExceededException);
    expect(error).toMatchObject({ message: 'slow down', $metadata: { httpStatusCode: 400 } });
  });

  // An emoji cut between two chunks: text decoded chunk by chunk without care would break it.
  const answer = { Items: [{ title: { S: `a 🎵 ${'x'.repeat(70_000)} é` } }] };
  const chunks = (json: string) => {
    const bytes = Buffer.from(json, 'utf8');
    const cut = bytes.indexOf(Buffer.from('🎵')) + 2;
    return [bytes.subarray(0, cut), bytes.subarray(cut)];
  };

  it("reads a Node handler's response stream as UTF-8, even with a character cut between chunks", async () => {
    const nodeStream: Payload = (json) => Readable.from(chunks(json), { objectMode: false });
    const sender = new DynamoSender(client(200, answer, [], 'http://localhost:8123', nodeStream));
    expect(await sender.send('Query', input, undefined)).toEqual(answer);
  });

  it("reads a fetch handler's web stream (Workers) as UTF-8 too", async () => {
    const webStream: Payload = (json) => ReadableStream.from(chunks(json).map((chunk) => new Uint8Array(chunk)));
    const sender = new DynamoSender(client(200, answer, [], 'http://localhost:8123', webStream));
    expect(await sender.send('Query', input, undefined)).toEqual(answer);
  });

  it('passes each call its own abort signal', async () => {
    const sent: Sent[] = [];
    const sender = new DynamoSender(client(200, { Items: [] }, sent, 'http://localhost:8123'));
    const first = new AbortController();
    const second = new AbortController();
    await sender.send('Query', input, first.signal);
    await sender.send('Query', input, second.signal);
    expect(sent.map((s) => s.signal)).toEqual([first.signal, second.signal]);
  });
});
