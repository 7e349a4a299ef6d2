import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One DynamoDB call as a router sent it: its operation (`x-amz-target`) and JSON body. */
export interface DynamoCall {
  readonly target: string;
  readonly body: string;
}

export interface RecordingProxy {
  readonly endpoint: string;
  /** Records the calls that pass from now until the returned function is called, which returns them. */
  record(): () => DynamoCall[];
  stop(): Promise<void>;
}

/**
 * A pass-through HTTP proxy in front of DynamoDB (Local) that can record the calls going
 * through it: what a route sends, byte for byte, for the floor to send again.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const agent = new Agent({ keepAlive: true });
  const upstream = new URL(target);
  let recorded: DynamoCall[] | undefined;
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = String(incoming.headers['x-amz-target'] ?? '');
      recorded?.push({ target, body: body.toString('utf8') });
      const forwarded = request(
        {
          agent,
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    record: () => {
      const calls: DynamoCall[] = [];
      recorded = calls;
      return () => {
        recorded = undefined;
        return calls;
      };
    },
    stop: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    },
  };
}
