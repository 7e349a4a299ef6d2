import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedSha256 } from '../../../src/store/keyed-sha256';
import { CallSigner, type CallRequest, type Credentials } from '../../../src/store/sigv4';

type SdkSigner = {
  sign<R>(request: R, options: { signingDate: Date }): Promise<R & { headers: Record<string, string> }>;
};

/** The SDK's own signer for a client in `region` with `credentials`, as the DynamoSender would have used it. */
async function sdkSigner(region: string, credentials: Credentials): Promise<SdkSigner> {
  const client = new DynamoDBClient({ region, credentials, sha256: KeyedSha256, endpoint: 'http://localhost:8000' });
  return (await (client.config as unknown as { signer(scheme: object): Promise<SdkSigner> }).signer({})) as SdkSigner;
}

function callRequest(host: string, target: string, body: string) {
  return {
    protocol: 'http:',
    hostname: host.split(':')[0],
    path: '/',
    method: 'POST',
    query: {},
    headers: {
      host,
      'content-type': 'application/x-amz-json-1.0',
      'content-length': String(Buffer.byteLength(body)),
      'x-amz-target': target,
    },
    body,
  } satisfies CallRequest & Record<string, unknown>;
}

describe('CallSigner', () => {
  it('signs a DynamoDB call exactly as the SDK signer does: headers, scope and signature', async () => {
    const credentials = fc.record(
      {
        accessKeyId: fc.stringMatching(/^[A-Z0-9]{4,20}$/),
        secretAccessKey: fc.string({ minLength: 1, maxLength: 40 }),
        sessionToken: fc.stringMatching(/^[A-Za-z0-9+/=]{1,200}$/),
      },
      { requiredKeys: ['accessKeyId', 'secretAccessKey'] },
    );
    const date = fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true });
    await fc.assert(
      fc.asyncProperty(
        credentials,
        fc.constantFrom('us-east-1', 'eu-west-3', 'ap-southeast-2'),
        fc.constantFrom('localhost:8000', 'dynamodb.eu-west-3.amazonaws.com'),
        fc.constantFrom('DynamoDB_20120810.Query', 'DynamoDB_20120810.PutItem'),
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        date,
        async (keys, region, host, target, body, now) => {
          const request = callRequest(host, target, JSON.stringify({ TableName: 't', text: body }));
          const theirs = await (await sdkSigner(region, keys)).sign(structuredClone(request), { signingDate: now });
          const ours = new CallSigner(region).sign(request, keys, now);
          expect(ours).toEqual(theirs);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('signs again with a new day or a new secret, never with a stale key', async () => {
    const signer = new CallSigner('us-east-1');
    const keys = { accessKeyId: 'AKID', secretAccessKey: 'one' };
    const request = callRequest('localhost:8000', 'DynamoDB_20120810.GetItem', '{"TableName":"t"}');
    for (const [credentials, now] of [
      [keys, new Date('2026-11-27T23:59:59Z')],
      [keys, new Date('2026-11-28T00:00:01Z')],
      [{ ...keys, secretAccessKey: 'two' }, new Date('2026-11-28T00:00:02Z')],
    ] as const) {
      const theirs = await (await sdkSigner('us-east-1', credentials)).sign(structuredClone(request), {
        signingDate: now,
      });
      expect(signer.sign(request, credentials, now).headers.authorization).toBe(theirs.headers.authorization);
    }
  });
});
