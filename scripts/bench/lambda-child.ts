/**
 * The built Lambda bundle for `npm run bench:requests -- --lambda`, in a process of its own: its
 * `handler` is imported as Lambda's Node runtime imports it (init reads process.env) and invoked
 * in this process with API Gateway HTTP API (payload 2.0) events, the bench's routes driven as the
 * keep-alive client drives the server. Takes one command a message (IPC) and answers each with
 * `{ latencies, cpuMs }`: its own user + system CPU (process.cpuUsage) around the phase, which
 * includes making the events, as Lambda's runtime makes them from its API's answers.
 */
import { pathToFileURL } from 'node:url';
import { drive, type PhaseLength } from './drive';
import { ROUTES, type ServiceRequest } from './request-routes';

interface Command extends PhaseLength {
  readonly route: string;
  readonly keyPrefix: string;
}

type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }>;

const { handler } = (await import(pathToFileURL(process.argv[2]!).href)) as { handler: Handler };
const context = { functionName: 'shardline', awsRequestId: 'bench', getRemainingTimeInMillis: () => 30_000 };

/** An HTTP API (2.0) event, the fields API Gateway fills (test/runtimes/support/lambda-events.ts has them all). */
function httpEvent({ method, path, body }: ServiceRequest): unknown {
  const url = new URL(path, 'https://bench.invalid');
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers: { host: 'bench.invalid', ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(url.search && { queryStringParameters: Object.fromEntries(url.searchParams) }),
    requestContext: {
      domainName: 'bench.invalid',
      http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: crypto.randomUUID(),
      routeKey: '$default',
      stage: '$default',
      timeEpoch: now,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    isBase64Encoded: false,
  };
}

/** Invokes the handler with one request; anything but a 2xx throws. */
async function invoke(request: ServiceRequest): Promise<void> {
  const result = await handler(httpEvent(request), context);
  if (result.statusCode < 200 || result.statusCode >= 300)
    throw new Error(`${request.method} ${request.path} answered ${result.statusCode}: ${result.body.slice(0, 300)}`);
}

process.on('message', async (command: Command) => {
  const route = ROUTES.find((candidate) => candidate.name === command.route)!;
  const before = process.cpuUsage();
  const latencies = await drive(command, (i) => invoke(route.request(`${command.keyPrefix}${i}`)));
  const used = process.cpuUsage(before);
  process.send!({ latencies, cpuMs: (used.user + used.system) / 1000 });
});
process.send!('ready');
