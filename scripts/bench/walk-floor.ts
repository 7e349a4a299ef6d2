import { Agent, request } from 'node:http';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { compareKeys } from '../../src/core/collation';
import { measured } from './page-sample';

/** The SDK's HttpRequest as its request handler gets it. */
interface SentRequest {
  readonly protocol: string;
  readonly hostname: string;
  readonly port?: number;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** One DynamoDB call as the router sent it: signed headers and JSON body. */
interface RecordedCall {
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Records the Query calls the router sends, per page, between `start()` and `stop()`: `page()`
 * starts the next page's list. It wraps the client's request handler, which gets each request
 * final (built, signed): what the floor replays is the router's call byte for byte.
 */
export function queryRecorder(client: DynamoDBClient) {
  let pages: RecordedCall[][] | undefined;
  const handler = client.config.requestHandler;
  const handle = handler.handle.bind(handler);
  handler.handle = (request, options) => {
    const http = request as SentRequest;
    if (pages && http.headers['x-amz-target']?.endsWith('.Query')) {
      const url = new URL(`${http.protocol}//${http.hostname}:${http.port}${http.path}`);
      const body = typeof http.body === 'string' ? http.body : new TextDecoder().decode(http.body as Uint8Array);
      pages.at(-1)?.push({ url, headers: { ...http.headers }, body });
    }
    return handle(request, options);
  };
  return {
    /** Records from now on, into a new list of pages. */
    start: () => {
      pages = [];
    },
    page: () => void pages?.push([]),
    /** Stops recording and returns what was recorded. */
    stop: (): RecordedCall[][] => {
      const recorded = pages ?? [];
      pages = undefined;
      return recorded;
    },
  };
}

/**
 * The floor of a page (docs/performance.md): the router's own DynamoDB calls for it, without the router
 * — sent together over keep-alive, answers parsed, items turned into plain JSON, merged by
 * index sort key in byte order, and the page written as the client's JSON. Its CPU is what
 * any router must spend on that page; the router's CPU is measured against it.
 */
export async function walkFloor(pages: readonly RecordedCall[][], sortKey: string, pageSize: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const samples: { cpuMs: number; ms: number }[] = [];
  try {
    for (const calls of pages) {
      if (calls.length === 0) continue;
      const { ms, cpuMs } = await measured(async () => {
        const answers = await Promise.all(calls.map((call) => send(agent, call)));
        const items = answers.flatMap((text) => (JSON.parse(text) as { Items: Attributes[] }).Items.map(plain));
        items.sort((a, b) => compareKeys(a[sortKey] as string, b[sortKey] as string));
        return JSON.stringify({ items: items.slice(0, pageSize), nextCursor: 'x'.repeat(120) });
      });
      samples.push({ ms, cpuMs });
    }
  } finally {
    agent.destroy();
  }
  return samples;
}

type Attributes = Record<string, Record<string, unknown>>;

/** DynamoDB JSON as plain JSON (the floor keeps numbers as doubles: it owes no exactness). */
function plain(item: Attributes): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name in item) out[name] = value(item[name]!);
  return out;
}

function value(attribute: Record<string, unknown>): unknown {
  if ('S' in attribute) return attribute.S;
  if ('N' in attribute) return Number(attribute.N);
  if ('BOOL' in attribute) return attribute.BOOL;
  if ('NULL' in attribute) return null;
  if ('L' in attribute) return (attribute.L as Record<string, unknown>[]).map(value);
  if ('M' in attribute) return plain(attribute.M as Attributes);
  return attribute;
}

function send(agent: Agent, call: RecordedCall): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = request(call.url, { method: 'POST', headers: call.headers, agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        response.statusCode === 200 ? resolve(text) : reject(new Error(`${response.statusCode}: ${text}`)),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(call.body);
  });
}
