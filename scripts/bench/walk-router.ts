import type { Service } from '../../src/runtime/service';
import { measured, type PageSample } from './page-sample';

/**
 * Walks a whole listing page by page through the router (`app.request`: the Hono
 * app in this process, as a Lambda or the Node server runs it) and records what
 * each page cost from the listing's own headers: x-items-read, x-shard-queries,
 * x-round-trips, x-consumed-rcu. The response body is read inside the timing (serializing it is the
 * router's work); parsing it for the cursor is not.
 */
export function walkRouter(
  app: Pick<Service['app'], 'request'>,
  collection: string,
  pageSize: number,
  maxPages = Infinity,
  from: string | null = null,
  /** Called before each page is asked for (the floor's recorder starts the page's list). */
  beforePage: () => void = () => {},
): Promise<(PageSample & { nextCursor: string | null })[]> {
  return walkListing(app, `/collections/${collection}/items`, pageSize, maxPages, from, beforePage);
}

/** `walkRouter` over any listing route: `path` without its query (a group's is `…/groups/{group}/items`). */
export async function walkListing(
  app: Pick<Service['app'], 'request'>,
  path: string,
  pageSize: number,
  maxPages = Infinity,
  from: string | null = null,
  beforePage: () => void = () => {},
): Promise<(PageSample & { nextCursor: string | null })[]> {
  const samples: (PageSample & { nextCursor: string | null })[] = [];
  let cursor: string | null = from;
  do {
    beforePage();
    const query = new URLSearchParams({ limit: String(pageSize), ...(cursor && { cursor }) });
    const { value, ms, cpuMs } = await measured(async () => {
      const response = await app.request(`${path}?${query}`);
      return { response, text: await response.text() };
    });
    const { response, text } = value;
    if (response.status !== 200) throw new Error(`listing ${path}: ${response.status} ${text.slice(0, 300)}`);
    const body = JSON.parse(text) as { items: unknown[]; nextCursor: string | null };
    const rcu = response.headers.get('x-consumed-rcu');
    samples.push({
      returned: body.items.length,
      itemsRead: Number(response.headers.get('x-items-read')),
      queries: Number(response.headers.get('x-shard-queries')),
      roundTrips: Number(response.headers.get('x-round-trips')),
      hedges: Number(response.headers.get('x-shard-hedges') ?? 0),
      rcu: rcu === null ? undefined : Number(rcu),
      ms,
      cpuMs,
      nextCursor: body.nextCursor,
    });
    cursor = body.nextCursor;
  } while (cursor !== null && samples.length < maxPages);
  return samples;
}
