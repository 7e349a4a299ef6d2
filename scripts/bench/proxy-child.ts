import { Agent, createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The delaying proxy: every DynamoDB call waits `delayMs`, then goes to the engine
 * unchanged, over kept-alive connections. It runs as a process of its own so that its
 * CPU never counts as the router's: `proxy-child.ts <target> <delayMs>` prints its
 * endpoint as one JSON line and runs until its stdin closes (the bench ending,
 * however it ends).
 *
 * Not test/support/dynamo-proxy.ts: that one re-sends the engine's
 * `transfer-encoding: chunked` next to a content-length, which Node's client refuses
 * for DynamoDB Local's larger (chunked) answers — a page of 100 × 500 bytes is one.
 */
const [target, delay] = process.argv.slice(2);
if (!target) throw new Error('usage: proxy-child.ts <target endpoint> <delay ms>');
const delayMs = Number(delay ?? '20');
const upstream = new URL(target);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const server = createServer(async (req, res) => {
  const body = await readBody(req);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const forwarded = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
    async (answer) => {
      const payload = await readBody(answer);
      const headers = { ...answer.headers, 'content-length': String(payload.length) };
      delete headers['transfer-encoding'];
      res.writeHead(answer.statusCode ?? 502, headers);
      res.end(payload);
    },
  );
  forwarded.on('error', () => req.socket.destroy());
  forwarded.end(body);
});

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(JSON.stringify({ endpoint: `http://127.0.0.1:${port}` }) + '\n');
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.stdin.resume();
process.stdin.on('end', stop);
process.on('SIGTERM', stop);
