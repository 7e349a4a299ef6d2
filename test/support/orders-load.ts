import { seededRandom } from '../../devtools/random';
import { resolveConfig } from '../../src/config/config';
import type { CollectionSpec } from '../../src/core/collection';
import { orderedValueOf } from '../../src/core/order';
import { fleetLoad, type FleetLoad } from '../../src/load/fleet-load';
import { LoadMeter } from '../../src/load/load-meter';
import type { LoadRecord } from '../../src/load/load-record';

/** Customers c000…c399, 50 to each of 8 range shards; c123, the whale, on shard 2 (c100…c149). */
const CUSTOMERS = 400;
const PER_SHARD = 50;
export const WHALE = 123;
export const WHALE_SHARD = 2;

/** A collection of orders, ordered by customer and then order date: a whale's orders are time-ordered. */
export const ORDERS = {
  order: [{ field: 'customerId' }, { field: 'orderDate', type: 'date' }],
  strategy: {
    kind: 'range',
    boundaries: [[], ...Array.from({ length: CUSTOMERS / PER_SHARD - 1 }, (_, i) => [customer((i + 1) * PER_SHARD)])],
  },
};

/** What one minute writes. */
export interface OrdersMinute {
  /** The whale's orders, each a second after its last: every one above all its earlier ones. */
  readonly whale?: number;
  /** Orders of random customers of the whale's shard on random past dates (a backfill): spread over its range. */
  readonly spread?: number;
  /** Each customer of the whale's shard in turn placing its next order: many small time-ordered streams. */
  readonly manyCustomers?: number;
  /** Orders of random customers on random past dates, per shard: the rest of the fleet's writes. */
  readonly background?: number;
}

const START = Date.parse('2026-01-01T00:00:00Z');
const YEAR_MS = 365 * 86_400_000;

function customer(n: number): string {
  return `c${String(n).padStart(3, '0')}`;
}

/**
 * One router's load records of `collection` (an `ORDERS` collection) over `minutes` (each the
 * start of one, oldest first), what `traffic(i)` writes in the i-th, as the router's meter
 * records them: each order's encoded [customerId, orderDate], on the shard the strategy routes it to.
 */
export function ordersRecords(
  collection: string,
  minutes: readonly number[],
  minuteMs: number,
  traffic: (minute: number) => OrdersMinute,
  seed = 7,
): LoadRecord[] {
  const spec = ordersSpec(collection);
  const random = seededRandom(seed);
  const meter = new LoadMeter('orders-router', minuteMs);
  const next = new Map<number, number>(); // per customer: the seconds after START of its next order
  const newest = (n: number) => {
    const at = next.get(n) ?? 0;
    next.set(n, at + 1);
    return START + at * 1000;
  };
  const past = () => START - Math.floor(random() * YEAR_MS);
  let turn = 0;
  minutes.forEach((minute, i) => {
    const write = (n: number, date: number) => {
      const value = orderedValueOf(spec, { customerId: customer(n), orderDate: new Date(date).toISOString() });
      meter.wrote(collection, 1, spec.initialStrategy.shardForWrite(value, random), value, 2, minute);
    };
    const { whale = 0, spread = 0, manyCustomers = 0, background = 0 } = traffic(i);
    const onWhaleShard = () => WHALE_SHARD * PER_SHARD + Math.floor(random() * PER_SHARD);
    for (let w = 0; w < whale; w++) write(WHALE, newest(WHALE));
    for (let w = 0; w < spread; w++) write(onWhaleShard(), past());
    for (let w = 0; w < manyCustomers; w++) {
      const n = WHALE_SHARD * PER_SHARD + (turn++ % PER_SHARD);
      write(n, newest(n));
    }
    for (let shard = 0; shard < CUSTOMERS / PER_SHARD; shard++) {
      for (let w = 0; w < background; w++) write(shard * PER_SHARD + Math.floor(random() * PER_SHARD), past());
    }
  });
  return meter.take(minutes.at(-1)! + minuteMs);
}

/** The `ORDERS` collection named `name`, resolved as a router resolves its config. */
export function ordersSpec(name: string): CollectionSpec {
  return resolveConfig({ collections: { [name]: ORDERS } })[0]!;
}

export const MINUTE = 60_000;
export const NOW = 1000 * MINUTE;

/** The window of `minutes` ended at NOW, whole and minute by minute, of the orders `traffic(i)` writes in minute i. */
export function ordersWindow(
  traffic: (minute: number) => OrdersMinute,
  minutes = 10,
): { window: FleetLoad; minutes: FleetLoad[] } {
  const starts = Array.from({ length: minutes }, (_, m) => NOW - (minutes - m) * MINUTE);
  const records = ordersRecords('orders', starts, MINUTE, traffic);
  const shape = { collection: 'orders', mapVersion: 1, shardCount: 8, minuteMs: MINUTE };
  return {
    window: fleetLoad(records, { ...shape, now: NOW, minutes }),
    minutes: starts.map((start) => fleetLoad(records, { ...shape, now: start + MINUTE, minutes: 1 })),
  };
}
