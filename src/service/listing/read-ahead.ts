import type { ReadPlan } from '../../core/plan';
import type { ShardPage } from '../../store/store';
import type { ReadPolicy } from './read-policy';

/**
 * The first queries of a range listing's one-shard groups, sent before the page reaches them: by the
 * shard tails (`prefetch`), and, once a shard has run out short of the page, several groups after it in
 * one wave (`before`). Each asks for all the page still needs, so a group is read exactly as in its
 * turn; an answer the page does not reach costs reads, never items.
 */
export class ReadAhead {
  private readonly pages = new Map<number, Promise<ShardPage>>();
  /** The one-shard groups read whole (from their shard's start) to their end in this page, and what they gave. */
  private readonly ended = { shards: 0, holding: 0, items: 0 };
  /** The groups the last wave read at once (1: the first group, read alone). */
  private width = 1;

  constructor(
    private readonly plan: ReadPlan,
    private readonly policy: ReadPolicy,
    private readonly send: (group: number, limit: number) => Promise<ShardPage>,
  ) {}

  /** Sends group `group`'s first query now, for `limit` items. */
  prefetch(group: number, limit: number): void {
    const page = this.send(group, limit);
    page.catch(() => undefined); // awaited where it is used; a failure is raised there
    this.pages.set(group, page);
  }

  /** Group `group`'s first page, if it went out ahead. */
  page(group: number): Promise<ShardPage> | undefined {
    return this.pages.get(group);
  }

  /**
   * Before group `group` (a one-shard group after the first) is drained, with `need` items
   * still to read: sends it and the one-shard groups after it as one wave, unless it is already
   * in flight. Returns whether a wave went out (one more round trip for the page).
   */
  before(group: number, need: number): boolean {
    const { groups } = this.plan;
    if (group === 0 || groups[group]?.length !== 1 || this.pages.has(group)) return false;
    this.width = Math.max(1, this.policy.readAhead(this.width, need, this.ended));
    for (let next = group; next < group + this.width && groups[next]?.length === 1; next++) {
      if (!this.pages.has(next)) this.prefetch(next, need);
    }
    return true;
  }

  /**
   * A one-shard group ran to its shard's end, giving `items` to the page. `whole`: it was read from
   * its shard's start; a read from the cursor says nothing of a shard's size unless it found nothing.
   */
  shardEnded(items: number, whole: boolean): void {
    if (!whole && items > 0) return;
    this.ended.shards++;
    if (items > 0) this.ended.holding++;
    this.ended.items += items;
  }

  /** The groups after `drained` whose pages went out ahead, in plan order. */
  unreached(drained: number): [number, Promise<ShardPage>][] {
    return [...this.pages].filter(([group]) => group > drained);
  }
}
