import { seededRandom } from '../../devtools/random';
import { type OrderLedger, orderDate, type Walk, walkOrders, writeOrder } from './order-ledger';

/** What the traffic did while it ran: every walk taken, every request that failed. */
export interface Traffic {
  readonly walks: Walk[];
  readonly failures: string[];
  /** Stops every loop after its current step; resolves once all have stopped. */
  stop(): Promise<void>;
}

export interface TrafficPlan {
  readonly bases: readonly string[];
  readonly ledger: OrderLedger;
  readonly whale: string;
  /** The small customers' ids. */
  readonly customers: readonly string[];
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * An application's traffic on `orders`, as long as it runs: two whale writers and a writer of small
 * customers' orders (each write through the next router), a walker of the whale's group and one of
 * small groups (each page from the next router, starting at either). Short pauses between steps
 * keep two cores free enough for the routers, the engine and a reshard process.
 */
export function startTraffic(plan: TrafficPlan): Traffic {
  const { bases, ledger, whale, customers } = plan;
  const walks: Walk[] = [];
  const failures: string[] = [];
  const random = seededRandom(7);
  let stopping = false;
  const loop = async (name: string, step: (round: number) => Promise<unknown>, pauseMs: number) => {
    for (let round = 0; !stopping; round++) {
      try {
        await step(round);
      } catch (error) {
        failures.push(`${name}: ${(error as Error).message}`);
      }
      await pause(pauseMs);
    }
  };
  const via = (round: number) => (round % 2 ? [...bases].reverse() : bases);
  const dates = () => orderDate(Math.floor(random() * 365));
  const loops = [
    ...[0, 1].map((writer) =>
      loop(
        `whale writer ${writer}`,
        (n) =>
          writeOrder(bases[(n + writer) % 2]!, ledger, {
            pk: `w${writer}-${n}`,
            customerId: whale,
            orderDate: dates(),
          }),
        15,
      ),
    ),
    loop(
      'small writer',
      (n) =>
        writeOrder(bases[n % 2]!, ledger, {
          pk: `s-${n}`,
          customerId: customers[Math.floor(random() * customers.length)]!,
          orderDate: dates(),
        }),
      15,
    ),
    loop('whale walker', async (n) => walks.push(await walkOrders(via(n), ledger, whale, n % 3 ? 100 : 37)), 50),
    loop(
      'small walker',
      async (n) => walks.push(await walkOrders(via(n), ledger, customers[(n * 7) % customers.length]!, 2)),
      30,
    ),
  ];
  return {
    walks,
    failures,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}
