import {
  DynamoDBClient,
  QueryCommand,
  type DynamoDBClientConfig,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import { RawQueryProtocol, type RawQueryOutput } from './query-protocol';

type RequestHandler = DynamoDBClient['config']['requestHandler'];
type HandlerOptions = Parameters<RequestHandler['handle']>[1];

/** Where a query's abort signal rides: on its input, then on its signed request. */
const SIGNAL = Symbol('shardline.abortSignal');
type Signalled = { [SIGNAL]?: AbortSignal };

/**
 * The client for listing pages' shard queries (DESIGN §13): DynamoDB's answers as wire JSON
 * (`RawQueryProtocol`), and middleware resolved once rather than per call. The SDK rebuilds and
 * sorts a command's middleware stack on every send given options (about a seventh of a query's
 * CPU); with `cacheMiddleware` it resolves it once per command class, but then a send takes no
 * options, and so no abort signal. A hedged query's loser must be aborted, so its signal rides
 * on the input instead, is moved onto the signed request by the innermost middleware, and the
 * request handler (the process's own, shared: same connections) takes it from there.
 */
export function createQueryClient(config: DynamoDBClientConfig, handler: RequestHandler): DynamoDBClient {
  const client = new DynamoDBClient({
    ...config,
    protocol: RawQueryProtocol,
    cacheMiddleware: true,
    requestHandler: signalPassing(handler),
  });
  client.middlewareStack.remove('loggerMiddleware');
  client.middlewareStack.add(
    (next) => (args) => {
      const signal = (args.input as Signalled)[SIGNAL];
      if (signal) (args.request as Signalled)[SIGNAL] = signal;
      return next(args);
    },
    { step: 'deserialize', priority: 'low', name: 'shardlineQuerySignal' },
  );
  return client;
}

/** Sends one Query through a client made by `createQueryClient`; `signal` aborts it. */
export function sendQuery(
  client: DynamoDBClient,
  input: QueryCommandInput,
  signal: AbortSignal | undefined,
): Promise<RawQueryOutput> {
  const signalled: QueryCommandInput & Signalled = signal ? { ...input, [SIGNAL]: signal } : input;
  const command = new QueryCommand(signalled);
  return client.send(command) as Promise<RawQueryOutput>;
}

/** The process's request handler, taking each request's abort signal from the request itself. */
function signalPassing(handler: RequestHandler): RequestHandler {
  return {
    metadata: handler.metadata,
    handle: (request, options?: HandlerOptions) => {
      const signal = (request as Signalled)[SIGNAL];
      return handler.handle(request, signal ? { ...options, abortSignal: signal } : options);
    },
    // The connections are the main client's; it closes them.
    destroy: () => {},
  } as RequestHandler;
}
