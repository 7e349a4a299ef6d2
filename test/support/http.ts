/** Something that answers web-standard requests: a Hono app, a worker, a server. */
export interface Fetcher {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

export interface JsonAnswer {
  readonly status: number;
  readonly headers: Headers;
  // Test assertions read arbitrary response shapes.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

export async function call(app: Fetcher, method: string, path: string, body?: unknown): Promise<JsonAnswer> {
  const response = await app.request(path, {
    method,
    ...(body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

export const get = (app: Fetcher, path: string) => call(app, 'GET', path);
export const put = (app: Fetcher, path: string, body: unknown) => call(app, 'PUT', path, body);
export const post = (app: Fetcher, path: string, body: unknown) => call(app, 'POST', path, body);
