import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** What the signer needs of a credential: the SDK's identity, as its provider gives it. */
export interface Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** A DynamoDB JSON call about to be sent: its headers are exactly the DynamoSender's, all lower case. */
export interface CallRequest {
  readonly headers: {
    readonly host: string;
    readonly 'content-type': string;
    readonly 'content-length': string;
    readonly 'x-amz-target': string;
  };
  readonly body: string;
}

/** The request with its signature's headers added. */
export type Signed<R extends CallRequest> = R & { readonly headers: R['headers'] & Readonly<Record<string, string>> };

/**
 * SigV4 for the DynamoSender's calls, which are all alike: `POST /`, no query, the same four headers. The SDK's
 * signer works it out for any request, at several times this signer's cost (docs/performance.md). The output
 * is the SDK's to the byte (test/unit/store/sigv4.test.ts holds it against SignatureV4).
 */
export class CallSigner {
  /** The signing key of one day, region and secret: four HMACs, made once a day. */
  private key: { readonly day: string; readonly secret: string; readonly key: KeyObject } | undefined;

  constructor(
    private readonly region: string,
    private readonly service = 'dynamodb',
  ) {}

  sign<R extends CallRequest>(request: R, credentials: Credentials, now = new Date()): Signed<R> {
    const amzDate = now.toISOString().replace(/[-:]|\.\d{3}/g, '');
    const day = amzDate.slice(0, 8);
    const { headers } = request;
    const token = credentials.sessionToken;
    // The SDK's signer sends and signs the body's hash as a header too: so does this.
    const bodyHash = sha256Hex(request.body);
    const signedHeaders = token
      ? 'content-length;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token;x-amz-target'
      : 'content-length;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-target';
    const canonical =
      'POST\n/\n\n' +
      `content-length:${headers['content-length']}\ncontent-type:${headers['content-type']}\n` +
      `host:${headers.host}\nx-amz-content-sha256:${bodyHash}\nx-amz-date:${amzDate}\n` +
      `${token ? `x-amz-security-token:${token}\n` : ''}x-amz-target:${headers['x-amz-target']}\n\n` +
      `${signedHeaders}\n${bodyHash}`;
    const scope = `${day}/${this.region}/${this.service}/aws4_request`;
    const signature = createHmac('sha256', this.keyFor(day, credentials.secretAccessKey))
      .update(`AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${sha256Hex(canonical)}`)
      .digest('hex');
    return {
      ...request,
      headers: {
        ...headers,
        'x-amz-content-sha256': bodyHash,
        'x-amz-date': amzDate,
        ...(token && { 'x-amz-security-token': token }),
        authorization:
          `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, ` +
          `SignedHeaders=${signedHeaders}, Signature=${signature}`,
      },
    };
  }

  private keyFor(day: string, secret: string): KeyObject {
    if (this.key?.day !== day || this.key.secret !== secret) {
      const bytes = [this.region, this.service, 'aws4_request'].reduce(
        (key, part) => createHmac('sha256', key).update(part).digest(),
        createHmac('sha256', `AWS4${secret}`).update(day).digest(),
      );
      // A KeyObject, not bytes: see ./keyed-sha256 for what Node 24 charges for an HMAC keyed with bytes.
      this.key = { day, secret, key: createSecretKey(bytes) };
    }
    return this.key.key;
  }
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
