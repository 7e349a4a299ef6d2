import { compareKeys } from '../../src/core/collation';

/** One order as the workload writes it: `pk` unique over the run, `sk` always "order". */
export interface Order {
  readonly pk: string;
  readonly customerId: string;
  readonly orderDate: string;
}

interface Write extends Order {
  readonly sent: number;
  acked?: number;
}

/** Day `i` of 2026: a few hundred dates, so many orders share a day and ties are ordered by key. */
export const orderDate = (i: number) => new Date(Date.UTC(2026, 0, 1 + (i % 365))).toISOString().slice(0, 10);

/**
 * Every order the workload sent, when it was sent and when it was acknowledged, by this process's
 * clock: enough to say what a walk of one group from `start` to `end` must hold and must not.
 */
export class OrderLedger {
  private readonly writes = new Map<string, Write>();

  /** Records an order as sent; `acked` marks it acknowledged. */
  sent(order: Order): { acked(): void } {
    const write: Write = { ...order, sent: Date.now() };
    this.writes.set(order.pk, write);
    return {
      acked: () => {
        write.acked = Date.now();
      },
    };
  }

  get(pk: string): (Order & { sent: number; acked?: number }) | undefined {
    return this.writes.get(pk);
  }

  /** The group's acknowledged orders. */
  acked(customerId: string): Order[] {
    return [...this.writes.values()].filter((w) => w.customerId === customerId && w.acked !== undefined);
  }

  /** Problems with one complete walk of `customerId` that ran from `start` to `end` (none when exact). */
  walkProblems(customerId: string, items: readonly Record<string, unknown>[], start: number, end: number): string[] {
    const problems: string[] = [];
    const seen = new Set<string>();
    let previous: Order | undefined;
    for (const item of items) {
      const pk = String(item.pk);
      const write = this.writes.get(pk);
      if (seen.has(pk)) problems.push(`listed twice: ${pk}`);
      seen.add(pk);
      if (!write || write.customerId !== customerId) problems.push(`not an order of ${customerId}: ${pk}`);
      else if (write.sent > end) problems.push(`written after the walk ended: ${pk}`);
      else if (item.orderDate !== write.orderDate) problems.push(`${pk} listed with date ${String(item.orderDate)}`);
      const order = { pk, customerId, orderDate: String(item.orderDate) };
      if (previous && compareOrders(previous, order) >= 0) problems.push(`out of order: ${previous.pk} before ${pk}`);
      previous = order;
    }
    for (const write of this.writes.values()) {
      if (write.customerId === customerId && write.acked !== undefined && write.acked < start && !seen.has(write.pk))
        problems.push(`missing: ${write.pk}`);
    }
    return problems;
  }
}

/** The collection's order: newest date first, one day's orders by primary key. */
export function compareOrders(a: Order, b: Order): number {
  return compareKeys(b.orderDate, a.orderDate) || compareKeys(a.pk, b.pk);
}

/** Writes one order through a router, recorded in the ledger; throws unless it is written. */
export async function writeOrder(base: string, ledger: OrderLedger, order: Order): Promise<void> {
  const entry = ledger.sent(order);
  const response = await fetch(`${base}/collections/orders/items`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...order, sk: 'order' }),
  });
  if (response.status !== 201)
    throw new Error(`write of ${order.pk} answered ${response.status}: ${await response.text()}`);
  entry.acked();
}

/**
 * Writes orders with the batch route through a router; those it reports written are acknowledged.
 * Resolves to the ones it did not write (a write cut off by the deadline may or may not be there).
 */
export async function writeOrders(base: string, ledger: OrderLedger, orders: readonly Order[]): Promise<Order[]> {
  const entries = orders.map((order) => ledger.sent(order));
  const response = await fetch(`${base}/collections/orders/items/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ items: orders.map((order) => ({ ...order, sk: 'order' })) }),
  });
  const body = (await response.json()) as { failed?: { index: number }[] };
  if (response.status !== 200) throw new Error(`batch answered ${response.status}: ${JSON.stringify(body)}`);
  const failed = new Set(body.failed?.map((failure) => failure.index));
  for (const [i, entry] of entries.entries()) if (!failed.has(i)) entry.acked();
  return orders.filter((_, i) => failed.has(i));
}

export interface Walk {
  readonly customerId: string;
  /** The group's phase as the first router routed by it when the walk started. */
  readonly phase: string;
  /** When that phase's change has been seen by every router (epoch ms): a shrink moves items from then on. */
  readonly settlesAt: number;
  readonly start: number;
  readonly end: number;
  readonly items: number;
  /** Each page's x-shard-queries. */
  readonly queries: number[];
  readonly problems: string[];
}

/** Walks one group to its end, each page from the next router in turn (cursors cross routers). */
export async function walkOrders(
  bases: readonly string[],
  ledger: OrderLedger,
  customerId: string,
  limit: number,
): Promise<Walk> {
  const group = `${bases[0]}/collections/orders/groups/${encodeURIComponent(customerId)}`;
  const shape = await fetch(group);
  if (shape.status !== 200) throw new Error(`GET ${group} answered ${shape.status}: ${await shape.text()}`);
  const { phase, changedAt, settleMs } = (await shape.json()) as { phase: string; changedAt: number; settleMs: number };
  const start = Date.now();
  const items: Record<string, unknown>[] = [];
  const queries: number[] = [];
  let cursor: string | null = null;
  do {
    const base = bases[queries.length % bases.length]!;
    const query = new URLSearchParams({ limit: String(limit), ...(cursor && { cursor }) });
    const path = `${base}/collections/orders/groups/${encodeURIComponent(customerId)}/items?${query}`;
    const response = await fetch(path);
    const body = (await response.json()) as { items: Record<string, unknown>[]; nextCursor: string | null };
    if (response.status !== 200)
      throw new Error(`page ${queries.length} of ${customerId} answered ${response.status}: ${JSON.stringify(body)}`);
    items.push(...body.items);
    queries.push(Number(response.headers.get('x-shard-queries')));
    cursor = body.nextCursor;
  } while (cursor);
  const end = Date.now();
  const problems = ledger.walkProblems(customerId, items, start, end);
  return { customerId, phase, settlesAt: changedAt + settleMs, start, end, items: items.length, queries, problems };
}
