import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One DynamoDB API call as it passes the proxy. */
export interface ProxiedCall {
  /** The operation, from X-Amz-Target (e.g. `Query`, `BatchWriteItem`). */
  readonly operation: string;
  /** The parsed JSON request body. */
  readonly body: Record<string, unknown>;
  /** 0-based count of calls seen so far. */
  readonly sequence: number;
}

/** What the proxy does with a call. */
export type ProxyAction =
  | { readonly kind: 'forward'; readonly delayMs?: number; readonly body?: Record<string, unknown>; readonly mapResponse?: (response: Record<string, unknown>) => Record<string, unknown> }
  | { readonly kind: 'respond'; readonly status: number; readonly body: Record<string, unknown>; readonly delayMs?: number }
  | { readonly kind: 'drop'; readonly delayMs?: number };

export interface DynamoProxy {
  readonly endpoint: string;
  readonly calls: ProxiedCall[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of a DynamoDB-compatible engine that can delay, answer,
 * rewrite or drop each call: the real engine behind it, faults and latency in
 * front. `decide` sees every call; without it every call is forwarded as is.
 */
export async function startDynamoProxy(
  target: string,
  decide: (call: ProxiedCall) => ProxyAction = () => ({ kind: 'forward' }),
): Promise<DynamoProxy> {
  const calls: ProxiedCall[] = [];
  const targetUrl = new URL(target);
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const operation = String(req.headers['x-amz-target'] ?? '').split('.').pop() ?? '';
    const body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
    const call: ProxiedCall = { operation, body, sequence: calls.length };
    calls.push(call);
    const action = decide(call);
    if (action.delayMs) await new Promise((r) => setTimeout(r, action.delayMs));
    if (action.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (action.kind === 'respond') {
      const payload = JSON.stringify(action.body);
      res.writeHead(action.status, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(payload) });
      res.end(payload);
      return;
    }
    forward(req, res, action.body ? Buffer.from(JSON.stringify(action.body)) : raw, action.mapResponse);
  });

  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    mapResponse: ((response: Record<string, unknown>) => Record<string, unknown>) | undefined,
  ): void {
    // The SDK signs requests; engines here do not check signatures, so a rewritten body still passes.
    const headers = { ...req.headers, host: targetUrl.host, 'content-length': String(body.length) };
    const upstream = httpRequest(
      { host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers },
      async (answer) => {
        let payload = await readBody(answer);
        if (mapResponse && (answer.statusCode ?? 500) < 300) {
          payload = Buffer.from(JSON.stringify(mapResponse(JSON.parse(payload.toString('utf8')))));
        }
        const outHeaders: Record<string, unknown> = { ...answer.headers, 'content-length': String(payload.length) };
        delete outHeaders['x-amz-crc32']; // a rewritten body no longer matches the engine's checksum
        res.writeHead(answer.statusCode ?? 500, outHeaders as Record<string, string>);
        res.end(payload);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    upstream.end(body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}
