import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { createHash, createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDynamoClients } from '../../../src/store/client';
import { KeyedSha256 } from '../../../src/store/keyed-sha256';
import { DynamoSender } from '../../../src/store/dynamo-sender';

type Signer = { sign<R extends { headers: Record<string, string> }>(request: R): Promise<R> };

const hex = async (hash: KeyedSha256) => Buffer.from(await hash.digest()).toString('hex');

describe('KeyedSha256', () => {
  it('gives what node:crypto gives, for keys as bytes, views, buffers and strings', async () => {
    const key = fc.oneof(
      fc.uint8Array({ maxLength: 80 }).map((bytes) => ({ secret: bytes, bytes })),
      fc
        .uint8Array({ minLength: 3, maxLength: 80 })
        .map((bytes) => ({ secret: bytes.subarray(2), bytes: bytes.subarray(2) })),
      fc.uint8Array({ maxLength: 80 }).map((bytes) => ({ secret: bytes.slice().buffer, bytes })),
      fc.string().map((text) => ({ secret: text, bytes: Buffer.from(text, 'utf8') })),
    );
    await fc.assert(
      fc.asyncProperty(key, fc.array(fc.uint8Array({ maxLength: 100 }), { maxLength: 4 }), async (k, chunks) => {
        const ours = new KeyedSha256(k.secret);
        const theirs = createHmac('sha256', k.bytes);
        for (const chunk of chunks) {
          ours.update(chunk);
          theirs.update(chunk);
        }
        expect(await hex(ours)).toBe(theirs.digest('hex'));
        const plain = new KeyedSha256();
        for (const chunk of chunks) plain.update(chunk);
        expect(await hex(plain)).toBe(createHash('sha256').update(Buffer.concat(chunks)).digest('hex'));
      }),
    );
  });

  it('reads a held key again when its bytes change', async () => {
    const key = new Uint8Array(32).fill(1);
    const mac = async () => {
      const hash = new KeyedSha256(key);
      hash.update(new TextEncoder().encode('string to sign'));
      return hex(hash);
    };
    const first = await mac();
    expect(await mac()).toBe(first);
    key[0] = 2;
    expect(await mac()).toBe(createHmac('sha256', key).update('string to sign').digest('hex'));
    expect(await mac()).not.toBe(first);
  });

  it('starts over on reset and refuses data after its digest', async () => {
    const hash = new KeyedSha256('k');
    hash.update(new Uint8Array([1, 2, 3]));
    await hash.digest();
    expect(() => hash.update(new Uint8Array([4]))).toThrow(/finished/);
    hash.reset();
    hash.update(new Uint8Array([4]));
    expect(await hex(hash)).toBe(
      createHmac('sha256', 'k')
        .update(new Uint8Array([4]))
        .digest('hex'),
    );
  });
});

describe("shardline's SDK clients sign with it", () => {
  afterEach(() => vi.useRealTimers());

  /** The headers of each request a client sends, its handler answering `{}`. */
  function recording(headers: Record<string, string>[]) {
    return {
      handle: async (request: { headers: Record<string, string> }) => {
        headers.push(request.headers);
        const answer = new TextEncoder().encode('{}');
        return {
          response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: answer },
        };
      },
    } as never;
  }

  it('exactly as the SDK signs with its own hash: any request, and the listing queries', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:34:56Z'));
    const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG', sessionToken: 'tok' };
    const settings = { region: 'eu-west-1', endpoint: 'http://localhost:8000', credentials };
    const sdkHeaders: Record<string, string>[] = [];
    const sdk = new DynamoDBClient({ ...settings, maxAttempts: 1, requestHandler: recording(sdkHeaders) });
    const ourHeaders: Record<string, string>[] = [];
    const ours = createDynamoClients({ ...settings, sdk: { requestHandler: recording(ourHeaders) } });
    expect(ours.raw.config.sha256).toBe(KeyedSha256);
    expect(sdk.config.sha256).not.toBe(KeyedSha256);

    // What every command goes through: the client's signer, over the same request.
    const put = JSON.stringify({ TableName: 'albums', Item: { sk: { S: 'Ünïcødé 🎵' }, n: { N: '1.50' } } });
    const request = {
      protocol: 'http:',
      hostname: 'localhost',
      port: 8000,
      path: '/',
      method: 'POST',
      query: {},
      headers: { host: 'localhost:8000', 'content-type': 'application/x-amz-json-1.0' } as Record<string, string>,
      body: put,
    };
    const signed = async (client: DynamoDBClient) => {
      const signer = await (client.config as unknown as { signer(scheme: object): Promise<Signer> }).signer({});
      // Twice: the second signing key comes from the signer's cache.
      return [
        (await signer.sign(structuredClone(request))).headers.authorization,
        (await signer.sign(request)).headers.authorization,
      ];
    };
    expect(await signed(ours.raw)).toEqual(await signed(sdk));

    // The listing's queries, through the lean sender over each client.
    const query = {
      TableName: 'albums',
      KeyConditionExpression: '#p = :p',
      ExpressionAttributeNames: { '#p': 'pk' },
      ExpressionAttributeValues: { ':p': { S: 'albums#3' } },
      Limit: 101,
    };
    for (let i = 0; i < 2; i++) {
      await ours.calls.send('Query', query, undefined);
      await new DynamoSender(sdk).send('Query', query, undefined);
    }
    const authorizations = (all: Record<string, string>[]) => all.map((headers) => headers.authorization);
    expect(authorizations(ourHeaders)).toEqual(authorizations(sdkHeaders));
    expect(ourHeaders).toHaveLength(2);
  });
});
