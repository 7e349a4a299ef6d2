import { parse } from 'lossless-json';
import { ExactNumber } from '../../src/core/exact-number';
import type { Fetcher } from '../support/http';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed losslessly (numbers as ExactNumber). */
  // Test assertions read arbitrary response shapes.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
  /** The body as JSON.parse reads it (numbers as doubles), for small counts and indexes. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly plain: any;
}

/** A request with a body sent as given (text or bytes) and the answer parsed without losing digits. */
export async function send(
  app: Fetcher,
  method: string,
  path: string,
  body?: string | Uint8Array,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const response = await app.request(path, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
    ...(body !== undefined && { body }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text ? parse(text, null, (digits) => new ExactNumber(digits)) : undefined,
    plain: text ? JSON.parse(text) : undefined,
  };
}

/** JSON text with ExactNumbers as raw digits: what a client that keeps numbers exact would send. */
export { jsonText } from '../../src/http/json-text';

/** A config over one table whose items are keyed by a string and a number (`pk`, `n`), ordered by `title`. */
export const NUMERIC_KEY_CONFIG = {
  table: { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'n', type: 'N' } },
  collections: { nums: { field: 'title', strategy: { kind: 'hash', shards: 4 } } },
};
