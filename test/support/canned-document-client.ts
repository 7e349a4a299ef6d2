import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { exactDocumentClient } from '../../src/store/client';

/**
 * The one document client as src/store/client.ts makes it, over a handler that keeps each
 * body sent and answers every call with an empty item: what the SDK marshals, without an engine.
 */
export function cannedDocumentClient() {
  const bodies: string[] = [];
  const handler = {
    handle: async (request: { body: string }) => {
      bodies.push(request.body);
      const headers = { 'content-type': 'application/x-amz-json-1.0' };
      return { response: { statusCode: 200, headers, body: new TextEncoder().encode('{}') } };
    },
  };
  const raw = new DynamoDBClient({
    region: 'eu-west-1',
    endpoint: 'http://localhost:8000',
    credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    requestHandler: handler as never,
  });
  return { doc: exactDocumentClient(raw), bodies };
}
