import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
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
  | {
      readonly kind: 'forward';
      readonly delayMs?: number;
      readonly body?: Record<string, unknown>;
      readonly mapResponse?: (response: Record<string, unknown>) => Record<string, unknown>;
      /** The engine does the work, then the connection drops before the answer reaches the client. */
      readonly dropAnswer?: boolean;
    }
  /** A JSON answer, or a raw string (a proxy's HTML error page, a truncated body). */
  | {
      readonly kind: 'respond';
      readonly status: number;
      readonly body: Record<string, unknown> | string;
      readonly delayMs?: number;
    }
  | { readonly kind: 'drop'; readonly delayMs?: number };

export interface DynamoProxy {
  readonly endpoint: string;
  readonly calls: ProxiedCall[];
  /** Calls whose client went away (aborted) before the proxy answered. */
  readonly cancelled: number;
  /** Calls whose answer the proxy finished sending to the client. */
  readonly answered: number;
  /**
   * Resolves once no call is in the proxy's hands: each one answered, dropped, or (when its
   * client went away) forwarded after its delay and answered by the engine all the same.
   */
  idle(): Promise<void>;
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
  let cancelled = 0;
  let answered = 0;
  let pending = 0;
  const wakeIdle: (() => void)[] = [];
  const dropped = new WeakSet<IncomingMessage>();
  const targetUrl = new URL(target);
  const server: Server = createServer(async (req, res) => {
    pending++;
    res.once('finish', () => answered++);
    const closed = new Promise<void>((resolve) =>
      res.once('close', () => {
        if (!res.writableFinished && !dropped.has(req)) cancelled++;
        resolve();
      }),
    );
    try {
      await handle(req, res);
    } finally {
      // A cancelled call is closed long before its work is done; an answered one only after.
      await closed;
      if (--pending === 0) for (const wake of wakeIdle.splice(0)) wake();
    }
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const operation =
      String(req.headers['x-amz-target'] ?? '')
        .split('.')
        .pop() ?? '';
    const body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
    const call: ProxiedCall = { operation, body, sequence: calls.length };
    calls.push(call);
    const action = decide(call);
    if (action.delayMs) await new Promise((r) => setTimeout(r, action.delayMs));
    if (action.kind === 'drop') {
      dropped.add(req);
      req.socket.destroy();
      return;
    }
    if (action.kind === 'respond') {
      const payload = typeof action.body === 'string' ? action.body : JSON.stringify(action.body);
      res.writeHead(action.status, {
        'content-type': 'application/x-amz-json-1.0',
        'content-length': Buffer.byteLength(payload),
      });
      res.end(payload);
      return;
    }
    await forward(
      req,
      res,
      action.body ? Buffer.from(JSON.stringify(action.body)) : raw,
      action.mapResponse,
      action.dropAnswer,
    );
  }

  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    mapResponse: ((response: Record<string, unknown>) => Record<string, unknown>) | undefined,
    dropAnswer = false,
  ): Promise<void> {
    // The SDK signs requests; engines here do not check signatures, so a rewritten body still passes.
    const headers: OutgoingHttpHeaders = {
      ...req.headers,
      host: targetUrl.host,
      'content-length': String(body.length),
    };
    delete headers['transfer-encoding']; // the body goes out whole, with its Content-Length
    let finished!: () => void;
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const upstream = httpRequest(
      { host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers },
      async (answer) => {
        let payload = await readBody(answer);
        // The engine has done the work; what happens to the client's connection is `closed`'s to say.
        finished();
        if (dropAnswer) {
          dropped.add(req);
          req.socket.destroy();
          return;
        }
        if (mapResponse && (answer.statusCode ?? 500) < 300) {
          payload = Buffer.from(JSON.stringify(mapResponse(JSON.parse(payload.toString('utf8')))));
        }
        const outHeaders: Record<string, unknown> = { ...answer.headers, 'content-length': String(payload.length) };
        delete outHeaders['x-amz-crc32']; // a rewritten body no longer matches the engine's checksum
        delete outHeaders['transfer-encoding']; // the body is sent whole, with its Content-Length
        res.writeHead(answer.statusCode ?? 500, outHeaders as Record<string, string>);
        res.end(payload);
      },
    );
    upstream.on('error', () => {
      finished();
      req.socket.destroy();
    });
    upstream.end(body);
    return done;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    get cancelled() {
      return cancelled;
    },
    get answered() {
      return answered;
    },
    idle: () => (pending === 0 ? Promise.resolve() : new Promise((resolve) => wakeIdle.push(resolve))),
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
