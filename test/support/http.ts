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

/** Answers a batch item may get from a busy machine (its deadline passed, the engine was busy): worth a resend. */
const TRANSIENT = new Set(['timeout', 'unavailable', 'overloaded']);

/**
 * Writes every item through the batch route, 1,000 a request, sending again the items that
 * failed for a transient reason: on a loaded machine a batch can outlast its deadline, and
 * the service then reports the rest as failed (as it must). Any other failure fails the test.
 */
export async function writeAll(app: Fetcher, collection: string, items: readonly object[]): Promise<void> {
  for (let start = 0; start < items.length; start += 1000) {
    let pending = items.slice(start, start + 1000);
    for (let attempt = 1; pending.length > 0; attempt++) {
      const answer = await post(app, `/collections/${collection}/items/batch`, { items: pending });
      const failed: { index: number; error: { code: string } }[] = answer.body?.failed ?? [];
      const lasting = failed.find(({ error }) => !TRANSIENT.has(error.code));
      if (answer.status !== 200 || lasting || attempt === 5) {
        throw new Error(`batch write to ${collection}: ${answer.status} ${JSON.stringify(lasting ?? failed[0])}`);
      }
      pending = failed.map(({ index }) => pending[index]!);
    }
  }
}
