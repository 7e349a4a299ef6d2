import { fullListing, Ledger, type ListingRecord, writeBatch } from '../reshard/workload';

/** How much each writer (one per router) sends: a batch of `items` every `everyMs`. */
export interface Pace {
  readonly items: number;
  readonly everyMs: number;
}

const HELD: Pace = { items: 0, everyMs: 50 };

interface PhasedListing extends ListingRecord {
  /** The map's phase (`GET /collections/{c}`) just before the listing began. */
  readonly phase: string;
}

/**
 * An application's traffic on one collection through a fleet of router processes, over
 * HTTP: one writer per router sending batches of the titles `title()` makes, at a pace
 * that changes on the fly, and one reader paging whole listings (each page from the next
 * router: cursors cross routers), each checked against the ledger of acknowledged writes.
 */
export class Traffic {
  readonly ledger: Ledger;
  readonly listings: PhasedListing[] = [];
  readonly failures: string[] = [];
  private title: () => string = () => '';
  private pace = HELD;
  private readonly batches = new Set<Promise<void>>();
  private loops: Promise<void>[] = [];
  private stopping = false;
  private written = 0;

  constructor(
    private readonly bases: readonly string[],
    collection: string,
    /** The reader's pause between two listings. */
    private readonly readerPauseMs: number,
  ) {
    this.ledger = new Ledger(collection);
  }

  /** From the next batch of each writer on, the writers send these titles at this pace; starts them the first time. */
  write(title: () => string, pace: Pace): void {
    this.title = title;
    this.pace = pace;
    if (this.loops.length > 0) return;
    this.loops = [
      ...this.bases.map((base, router) => this.loop(() => this.writeOnce(base, router))),
      this.loop(async (round) => {
        await this.listOnce(round);
        await sleep(this.readerPauseMs);
      }),
    ];
  }

  /** The same titles at another pace, from each writer's next batch on. */
  changePace(pace: Pace): void {
    this.pace = pace;
  }

  /** The writers stop sending (the reader goes on); resolves once every batch sent is answered. */
  async hold(): Promise<void> {
    this.pace = HELD;
    await Promise.allSettled(this.batches);
  }

  /** Ends the writers and the reader after what each is doing; resolves once they all have. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.loops);
  }

  /** When the first write was sent (epoch ms). */
  firstWrite(): number {
    return Math.min(...[...this.ledger.writes.values()].map((write) => write.sent));
  }

  /** One whole listing taken now, recorded with the others. */
  async listOnce(round = 0): Promise<PhasedListing> {
    const phase = await this.phase();
    const order = round % 2 ? this.bases : [...this.bases].reverse();
    const listing = { ...(await fullListing(order, this.ledger, round % 3 === 2 ? 37 : 100)), phase };
    this.listings.push(listing);
    return listing;
  }

  private async writeOnce(base: string, router: number): Promise<void> {
    const started = Date.now();
    const { items, everyMs } = this.pace;
    if (items > 0) {
      const batch = Array.from({ length: items }, () => ({ pk: `r${router}-${this.written++}`, title: this.title() }));
      const sent = writeBatch(base, this.ledger, batch);
      this.batches.add(sent);
      try {
        await sent;
      } finally {
        this.batches.delete(sent);
      }
    }
    await sleep(everyMs - (Date.now() - started));
  }

  private async phase(): Promise<string> {
    const response = await fetch(`${this.bases[0]}/collections/${this.ledger.collection}`);
    const body = (await response.json()) as { map?: { phase: string } };
    if (!body.map) throw new Error(`GET /collections/${this.ledger.collection} answered ${response.status}`);
    return body.map.phase;
  }

  private async loop(body: (round: number) => Promise<void>): Promise<void> {
    for (let round = 0; !this.stopping; round++) {
      try {
        await body(round);
      } catch (error) {
        this.failures.push((error as Error).message);
        await sleep(100);
      }
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
