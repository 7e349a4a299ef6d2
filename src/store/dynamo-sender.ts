import {
  BatchGetItem$,
  BatchWriteItem$,
  DeleteItem$,
  type DynamoDBClient,
  GetItem$,
  PutItem$,
  Query$,
  TransactWriteItems$,
  UpdateItem$,
} from '@aws-sdk/client-dynamodb';
import { internalError } from '../core/errors';
import { CallSigner, type Credentials } from './sigv4';

/** The operation schemas of the calls serving routes make: what the SDK reads an error answer by. */
const OPERATIONS = {
  Query: Query$,
  GetItem: GetItem$,
  PutItem: PutItem$,
  UpdateItem: UpdateItem$,
  DeleteItem: DeleteItem$,
  BatchGetItem: BatchGetItem$,
  BatchWriteItem: BatchWriteItem$,
  TransactWriteItems: TransactWriteItems$,
} as const;

export type DynamoOperation = keyof typeof OPERATIONS;

/** An answer as DynamoDB sends it: attribute values in its wire JSON (`{ "N": "1.50" }`), not yet converted. */
export type RawAnswer = Readonly<Record<string, unknown>>;

type Config = DynamoDBClient['config'];
type HttpRequest = Parameters<Config['requestHandler']['handle']>[0];
type HttpResponse = Awaited<ReturnType<Config['requestHandler']['handle']>>['response'];
type Signer = { sign(request: HttpRequest): Promise<HttpRequest> };
type Endpoint = { readonly protocol: string; readonly hostname: string; readonly port?: number; readonly path: string };
interface Parts {
  readonly signer: Signer;
  readonly endpoint: Endpoint;
  /** Signs a call to the endpoint's root with the client's credentials (./sigv4); the SDK's signer elsewhere. */
  readonly lean?: { readonly signer: CallSigner; readonly credentials: () => Promise<Credentials> };
}

/**
 * Sends the serving routes' DynamoDB calls with the SDK client's credentials, endpoint, request handler (the
 * same connections) and error reader (the same typed errors), signed as its signer signs them (./sigv4), but
 * not through its command pipeline, which costs several times this path's CPU a call (docs/performance.md).
 * The input goes out as the JSON it is, values already in wire form (./attribute-json); the answer stays
 * DynamoDB's JSON (numbers are strings there, so `JSON.parse` loses nothing) for the store to convert once.
 */
export class DynamoSender {
  private prepared: Promise<Parts> | undefined;

  constructor(private readonly client: DynamoDBClient) {}

  async send(operation: DynamoOperation, input: object, signal: AbortSignal | undefined): Promise<RawAnswer> {
    const { signer, endpoint, lean } = await this.prepare();
    const body = JSON.stringify(input);
    const host = endpoint.port === undefined ? endpoint.hostname : `${endpoint.hostname}:${endpoint.port}`;
    const request = {
      ...endpoint,
      method: 'POST',
      query: {},
      headers: {
        host,
        'content-type': 'application/x-amz-json-1.0',
        'content-length': String(Buffer.byteLength(body)),
        'x-amz-target': `DynamoDB_20120810.${operation}`,
      },
      body,
    } as HttpRequest;
    const config = this.client.config;
    const signed = lean ? lean.signer.sign(request, await lean.credentials()) : await signer.sign(request);
    const { response } = await config.requestHandler.handle(signed, { abortSignal: signal });
    if (response.statusCode >= 300) throw await this.errorOf(operation, response);
    const text = await bodyText(config, response);
    return (text.length > 0 ? JSON.parse(text) : {}) as RawAnswer;
  }

  /** Resolved once (again after a failure: a credential source may recover). */
  private prepare() {
    this.prepared ??= resolveParts(this.client.config).catch((error: unknown) => {
      this.prepared = undefined;
      throw error;
    });
    return this.prepared;
  }

  /** The error the SDK would have thrown for this answer. */
  private async errorOf(operationName: DynamoOperation, response: HttpResponse): Promise<unknown> {
    const [, namespace, name, traits, input, output] = OPERATIONS[operationName];
    const operation = { namespace, name, traits, input, output };
    const config = this.client.config;
    const protocol = config.protocol as { deserializeResponse(...args: unknown[]): Promise<unknown> };
    try {
      await protocol.deserializeResponse(operation, { ...config }, response);
    } catch (error) {
      return error;
    }
    return internalError(`DynamoDB answered ${operationName} with HTTP ${response.statusCode} and no error`);
  }
}

async function resolveParts(config: Config): Promise<Parts> {
  const signer = (await (config as unknown as { signer(scheme: object): Promise<Signer> }).signer({})) as Signer;
  const endpoint = await endpointOf(config);
  // Where the SDK's signer would sign the same (the signer above has just set the signing region and name).
  const { signingRegion, signingName, credentials } = config as unknown as {
    signingRegion?: string;
    signingName?: string;
    credentials?: () => Promise<Credentials>;
  };
  if (endpoint.path !== '/' || !signingRegion || !signingName || typeof credentials !== 'function') {
    return { signer, endpoint };
  }
  return { signer, endpoint, lean: { signer: new CallSigner(signingRegion, signingName), credentials } };
}

async function endpointOf(config: Config): Promise<Endpoint> {
  if (config.isCustomEndpoint && config.endpoint) {
    const { protocol, hostname, port, path } = await config.endpoint();
    return { protocol, hostname, ...(port !== undefined && { port }), path };
  }
  // DynamoDB's regional endpoint, as the SDK's own rules give it for the client's region.
  const { url } = config.endpointProvider({
    Region: await config.region(),
    UseDualStack: await config.useDualstackEndpoint(),
    UseFIPS: await config.useFipsEndpoint(),
    AccountIdEndpointMode: 'disabled',
  });
  const { protocol, hostname, port, pathname: path } = url;
  return { protocol, hostname, ...(port !== '' && { port: Number(port) }), path };
}

const decoder = new TextDecoder();

type TextStream = AsyncIterable<string> & { setEncoding(encoding: 'utf8'): unknown };

/**
 * On Node the body is the response stream, read as UTF-8 chunk by chunk (cheaper than the SDK's collector:
 * docs/performance.md). Fetch-based handlers (Workers) give a web stream: collected.
 */
async function bodyText(config: Config, response: HttpResponse): Promise<string> {
  const body: unknown = response.body;
  if (body instanceof Uint8Array) return decoder.decode(body);
  if (isTextStream(body)) {
    body.setEncoding('utf8');
    let text = '';
    for await (const chunk of body) text += chunk;
    return text;
  }
  return body ? decoder.decode(await config.streamCollector(body)) : '';
}

function isTextStream(body: unknown): body is TextStream {
  return (
    typeof (body as Partial<TextStream> | null)?.setEncoding === 'function' && Symbol.asyncIterator in Object(body)
  );
}
