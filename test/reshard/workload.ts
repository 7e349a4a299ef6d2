import { compareKeys } from '../../src/core/collation';
import { indexSortKey } from '../../src/core/index-key';
import { normalize } from '../../src/core/normalize';

/**
 * What the application did to one collection and when, by the clock of this process:
 * enough to say, for a listing that ran from `start` to `end`, which items it must
 * hold and which it must not.
 */
export class Ledger {
  /** Item key → when its write was sent and when it was acknowledged. */
  readonly writes = new Map<string, { title: string; sent: number; acked?: number }>();
  /** Item key → when its delete was sent and when it was acknowledged. */
  readonly deletes = new Map<string, { sent: number; acked?: number }>();

  constructor(readonly collection: string) {}

  /** Items every listing that started at `start` and ended at `end` must hold, and must not. */
  expectations(start: number, end: number): { required: Set<string>; forbidden: Set<string> } {
    const required = new Set<string>();
    const forbidden = new Set<string>();
    for (const [key, write] of this.writes) {
      const deleted = this.deletes.get(key);
      if (write.acked !== undefined && write.acked < start && (!deleted || deleted.sent > end)) required.add(key);
      if (write.sent > end || (deleted?.acked !== undefined && deleted.acked < start)) forbidden.add(key);
    }
    return { required, forbidden };
  }

  /** Items that exist now that the workload has stopped. */
  live(): Map<string, string> {
    const live = new Map<string, string>();
    for (const [key, write] of this.writes)
      if (write.acked !== undefined && !this.deletes.has(key)) live.set(key, write.title);
    return live;
  }
}

export interface ListedItem {
  readonly pk: string;
  readonly sk: string;
  readonly title: string;
}

export const itemKey = (item: { pk: string; sk: string }) => `${item.pk}\u0001${item.sk}`;

/** Problems with one complete listing (empty when it is exact). */
export function listingProblems(ledger: Ledger, items: readonly ListedItem[], start: number, end: number): string[] {
  const problems: string[] = [];
  const { required, forbidden } = ledger.expectations(start, end);
  const seen = new Set<string>();
  let previous: string | undefined;
  for (const item of items) {
    const key = itemKey(item);
    const sortKey = indexSortKey(normalize(item.title, 'nfkd-lower'), [item.pk, item.sk]);
    if (previous !== undefined && compareKeys(previous, sortKey) >= 0)
      problems.push(`out of order or repeated: ${key}`);
    previous = sortKey;
    if (seen.has(key)) problems.push(`listed twice: ${key}`);
    seen.add(key);
    if (forbidden.has(key)) problems.push(`listed but deleted before, or written after, the listing: ${key}`);
  }
  for (const key of required) if (!seen.has(key)) problems.push(`missing: ${key}`);
  return problems;
}

export interface ListingRecord {
  readonly collection: string;
  readonly items: number;
  readonly pages: number;
  readonly problems: string[];
  /** Map versions the pages were read from ("x-..." headers are not needed: the index is one per page). */
  readonly start: number;
  readonly end: number;
}

/** Pages through a whole listing, each page from the next router in turn (cursors cross routers). */
export async function fullListing(bases: readonly string[], ledger: Ledger, limit: number): Promise<ListingRecord> {
  const start = Date.now();
  const items: ListedItem[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const base = bases[pages % bases.length]!;
    const query = new URLSearchParams({ limit: String(limit), ...(cursor && { cursor }) });
    const response = await fetch(`${base}/collections/${ledger.collection}/items?${query}`);
    const body = (await response.json()) as { items: ListedItem[]; nextCursor: string | null };
    if (response.status !== 200)
      throw new Error(`listing page ${pages} answered ${response.status}: ${JSON.stringify(body)}`);
    items.push(...body.items);
    cursor = body.nextCursor;
    pages++;
  } while (cursor);
  const end = Date.now();
  return {
    collection: ledger.collection,
    items: items.length,
    pages,
    problems: listingProblems(ledger, items, start, end),
    start,
    end,
  };
}

/** Writes one item through a router, recording when it was sent and acknowledged. */
export async function writeItem(base: string, ledger: Ledger, pk: string, title: string): Promise<void> {
  const key = itemKey({ pk, sk: 'a' });
  const entry: { title: string; sent: number; acked?: number } = { title, sent: Date.now() };
  ledger.writes.set(key, entry);
  const response = await fetch(`${base}/collections/${ledger.collection}/items`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pk, sk: 'a', title }),
  });
  if (response.status !== 201) throw new Error(`write of ${pk} answered ${response.status}: ${await response.text()}`);
  entry.acked = Date.now();
}

/** Deletes one item through a router, recording when it was sent and acknowledged. */
export async function deleteItem(base: string, ledger: Ledger, pk: string): Promise<void> {
  const entry: { sent: number; acked?: number } = { sent: Date.now() };
  ledger.deletes.set(itemKey({ pk, sk: 'a' }), entry);
  const response = await fetch(`${base}/collections/${ledger.collection}/item?pk=${encodeURIComponent(pk)}&sk=a`, {
    method: 'DELETE',
  });
  if (response.status !== 204) throw new Error(`delete of ${pk} answered ${response.status}: ${await response.text()}`);
  entry.acked = Date.now();
}

/** Writes a batch through a router; every item must be written. */
export async function writeBatch(base: string, ledger: Ledger, items: { pk: string; title: string }[]): Promise<void> {
  const sent = Date.now();
  for (const { pk, title } of items) ledger.writes.set(itemKey({ pk, sk: 'a' }), { title, sent });
  const response = await fetch(`${base}/collections/${ledger.collection}/items/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ items: items.map(({ pk, title }) => ({ pk, sk: 'a', title })) }),
  });
  const body = (await response.json()) as { written: number; failed: unknown[] };
  if (response.status !== 200 || body.written !== items.length) {
    throw new Error(`batch answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  const acked = Date.now();
  for (const { pk } of items) ledger.writes.get(itemKey({ pk, sk: 'a' }))!.acked = acked;
}
