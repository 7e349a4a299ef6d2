import { Agent, request } from 'node:http';
import { randomTitle } from '../../devtools/titles';
import { seededRandom } from '../../devtools/random';

/** One HTTP request to the service. */
export interface ServiceRequest {
  readonly method: 'GET' | 'PUT' | 'DELETE' | 'POST';
  readonly path: string;
  readonly body?: unknown;
}

/** A route the bench drives; `key` is the item key text of a request (PUT and DELETE write their own items). */
export interface BenchRoute {
  readonly name: string;
  /** Writes or deletes the item `key` names (the floor sends the recorded call with its own key). */
  readonly keyed?: 'put' | 'delete';
  request(key: string): ServiceRequest;
}

export const SEED_ITEM = 'seed-7';

export const ROUTES: readonly BenchRoute[] = [
  { name: 'GET item', request: () => ({ method: 'GET', path: `/collections/albums/item?pk=${SEED_ITEM}&sk=album` }) },
  {
    name: 'PUT item',
    keyed: 'put',
    request: (key) => ({
      method: 'PUT',
      path: '/collections/albums/items',
      body: { pk: key, sk: 'album', title: 'Kid A' },
    }),
  },
  {
    name: 'DELETE item',
    keyed: 'delete',
    request: (key) => ({ method: 'DELETE', path: `/collections/albums/item?pk=${key}&sk=album` }),
  },
  { name: 'range page, limit=10', request: () => ({ method: 'GET', path: '/collections/albums/items?limit=10' }) },
  { name: 'range page, limit=100', request: () => ({ method: 'GET', path: '/collections/albums/items?limit=100' }) },
  {
    name: 'hash page, limit=100 (21 shards)',
    request: () => ({ method: 'GET', path: '/collections/albums-hash/items?limit=100' }),
  },
  { name: 'GET /healthz', request: () => ({ method: 'GET', path: '/healthz' }) },
];

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** Sends one request over keep-alive and reads its answer; anything but a 2xx throws. */
export function call(base: string, { method, path, body }: ServiceRequest): Promise<string> {
  const url = new URL(path, base);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers =
    text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
  return new Promise((resolve, reject) => {
    const sent = request(
      { agent, host: url.hostname, port: url.port, method, path: url.pathname + url.search, headers },
      (answer) => {
        answer.setEncoding('utf8');
        let answered = '';
        answer.on('data', (chunk: string) => (answered += chunk));
        answer.on('end', () => {
          const status = answer.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(answered);
          else reject(new Error(`${method} ${path} answered ${status}: ${answered.slice(0, 300)}`));
        });
      },
    );
    sent.on('error', reject);
    sent.end(text);
  });
}

/** `count` items (titles shaped like the seed's, so range shards fill as in use) in each of albums and albums-hash. */
export async function seed(base: string, count: number): Promise<void> {
  const random = seededRandom(43);
  for (const collection of ['albums', 'albums-hash']) {
    for (let start = 0; start < count; start += 500) {
      const items = Array.from({ length: Math.min(500, count - start) }, (_, i) => ({
        pk: `seed-${start + i}`,
        sk: 'album',
        title: randomTitle(random),
      }));
      await call(base, { method: 'POST', path: `/collections/${collection}/items/batch`, body: { items } });
    }
  }
}

export function closeConnections(): void {
  agent.destroy();
}
