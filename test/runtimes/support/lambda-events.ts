/** The three event shapes that reach a Lambda function over HTTP. */
export type EventKind = 'rest-v1' | 'http-v2' | 'function-url';

export interface HttpCall {
  readonly method: string;
  /** Path and query as a client sends them, e.g. `/collections/albums/items?limit=3`. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Send the body base64-encoded, as API Gateway does for binary media types and Function URLs may. */
  readonly base64?: boolean;
}

export interface LambdaResult {
  statusCode: number;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  body: string;
  isBase64Encoded: boolean;
}

/**
 * A request as API Gateway REST (payload 1.0), HTTP API (2.0) or a Function URL
 * (2.0, its own domain and request context) hands it to the function — the
 * fields AWS documents for each, filled as AWS fills them.
 */
export function lambdaEvent(kind: EventKind, call: HttpCall): Record<string, unknown> {
  const url = new URL(call.path, 'https://example.invalid');
  const headers = { host: hostFor(kind), 'user-agent': 'shardline-test', ...call.headers };
  const body =
    call.body === undefined ? null : call.base64 ? Buffer.from(call.body, 'utf8').toString('base64') : call.body;
  const now = Date.now();
  if (kind === 'rest-v1') {
    const multi: Record<string, string[]> = {};
    for (const [key, value] of url.searchParams) {
      multi[key] ??= [];
      multi[key].push(value);
    }
    const single = Object.fromEntries(Object.entries(multi).map(([key, values]) => [key, values.at(-1)!]));
    const hasQuery = Object.keys(multi).length > 0;
    return {
      resource: '/{proxy+}',
      path: url.pathname,
      httpMethod: call.method,
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([key, value]) => [key, [value]])),
      queryStringParameters: hasQuery ? single : null,
      multiValueQueryStringParameters: hasQuery ? multi : null,
      pathParameters: { proxy: url.pathname.slice(1) },
      stageVariables: null,
      requestContext: {
        accountId: '123456789012',
        apiId: 'abcdef1234',
        resourceId: 'res123',
        resourcePath: '/{proxy+}',
        httpMethod: call.method,
        path: `/prod${url.pathname}`,
        protocol: 'HTTP/1.1',
        stage: 'prod',
        requestId: crypto.randomUUID(),
        requestTimeEpoch: now,
        identity: { sourceIp: '127.0.0.1', userAgent: 'shardline-test' },
      },
      body,
      isBase64Encoded: Boolean(call.base64 && body !== null),
    };
  }
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(url.search && { queryStringParameters: Object.fromEntries(url.searchParams) }),
    requestContext: {
      accountId: kind === 'function-url' ? 'anonymous' : '123456789012',
      apiId: kind === 'function-url' ? 'abcdefghijklmnopqrstuvwxyz' : 'abcdef1234',
      domainName: hostFor(kind),
      domainPrefix: hostFor(kind).split('.')[0],
      http: {
        method: call.method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'shardline-test',
      },
      requestId: crypto.randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(body !== null && { body }),
    isBase64Encoded: Boolean(call.base64 && body !== null),
  };
}

function hostFor(kind: EventKind): string {
  if (kind === 'rest-v1') return 'abcdef1234.execute-api.us-east-1.amazonaws.com';
  if (kind === 'http-v2') return 'abcdef1234.execute-api.us-east-1.amazonaws.com';
  return 'abcdefghijklmnopqrstuvwxyz.lambda-url.us-east-1.on.aws';
}

/** A Lambda result as the web Response API Gateway would send on. */
export function resultToResponse(result: LambdaResult): Response {
  const headers = new Headers();
  for (const [key, value] of Object.entries(result.headers ?? {})) headers.set(key, value);
  for (const [key, values] of Object.entries(result.multiValueHeaders ?? {}))
    for (const value of values) headers.append(key, value);
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  const noBody = result.statusCode === 204 || result.statusCode === 304;
  return new Response(noBody ? null : body, { status: result.statusCode, headers });
}

/**
 * What EventBridge hands a function on a schedule (SAM's `Schedule` event, a rule's
 * `rate()` or `cron()`): the fields AWS documents, filled as AWS fills them.
 */
export function scheduledEvent(time = new Date()): Record<string, unknown> {
  return {
    version: '0',
    id: '53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '123456789012',
    time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: 'us-east-1',
    resources: ['arn:aws:events:us-east-1:123456789012:rule/shardline-AutopilotFunctionAutopilotSchedule-1A2B3C'],
    detail: {},
  };
}
