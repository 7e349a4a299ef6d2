import { LoserTree } from './loser-tree';
import { packed } from './packed';
import type { SortOrder } from './plan';

/** Why `emitInto` stopped: the output is full, some sources must be read first, or all are done. */
export type MergeStop =
  | { readonly kind: 'full' }
  | { readonly kind: 'need'; readonly sources: readonly number[] }
  | { readonly kind: 'done' };

const FULL: MergeStop = { kind: 'full' };
const DONE: MergeStop = { kind: 'done' };

interface SourceState<T> {
  items: T[];
  position: number;
  exhausted: boolean;
}

/**
 * A lazy k-way merge over sorted sources (shards), as a pure state machine: the
 * driver feeds it pages with `supply` and takes items with `emitInto`; it never does I/O.
 *
 * Why it is exact: every source is sorted, and the merge emits an item only when
 * every source that is not exhausted has a buffered head — so the smallest head is
 * the smallest remaining item of all sources. When a source's buffer runs dry it
 * asks for that source ("need") before emitting anything else, because that
 * source's next item could be the next output; it never asks for a source whose
 * buffer still holds items, so reads stay proportional to what is emitted.
 * Keys must be unique across sources (index sort keys are).
 */
export class KWayMerge<T> {
  private readonly sources: SourceState<T>[];
  private readonly tree: LoserTree;
  /** Sources whose buffer ran dry and that may hold more: nothing is emitted until they are supplied. */
  private readonly waiting: boolean[];
  private waitingCount: number;
  /** Whether every source has had its first page and the tree has played its matches. */
  private built = false;

  constructor(
    sourceCount: number,
    private readonly keyOf: (item: T) => string,
    order: SortOrder,
  ) {
    this.sources = [];
    for (let source = 0; source < sourceCount; source++)
      this.sources.push({ items: [], position: 0, exhausted: false });
    this.tree = new LoserTree(sourceCount, order);
    this.waiting = packed(sourceCount, true);
    this.waitingCount = sourceCount;
  }

  /**
   * Hands the merge the next sorted page of `source`; `exhausted` when the source has
   * no more. A source that still holds buffered items may be topped up ahead of need
   * (a refill wave): the page must continue right after its last buffered item.
   */
  supply(source: number, items: T[], exhausted: boolean): void {
    const state = this.sources[source]!;
    if (!this.waiting[source]) {
      if (state.exhausted || state.position >= state.items.length) {
        throw new Error(`merge: source ${source} was not waiting for items`);
      }
      // Its head, and so the tree, stay as they are: the new items all come after it.
      for (const item of items) state.items.push(item);
      state.exhausted = exhausted;
      return;
    }
    state.items = items;
    state.position = 0;
    state.exhausted = exhausted;
    if (items.length === 0 && !exhausted) return;
    this.waiting[source] = false;
    this.waitingCount--;
    const head = items.length > 0 ? this.keyOf(items[0]!) : undefined;
    // Once built, a source waits only after its last item was emitted: it is still the winner.
    if (this.built) this.tree.advance(source, head);
    else {
      this.tree.place(source, head);
      if (this.waitingCount === 0) {
        this.tree.build();
        this.built = true;
      }
    }
  }

  /** Items buffered for `source` and not yet emitted. */
  buffered(source: number): number {
    const state = this.sources[source]!;
    return state.items.length - state.position;
  }

  /** The source itself may hold more than was supplied (it can be asked for more). */
  hasMore(source: number): boolean {
    return !this.sources[source]!.exhausted;
  }

  /**
   * Moves items, in order, onto the end of `out` until it holds `until` items. Stops
   * early when a source must be read first ('need') or every source is done ('done').
   * A batch, not an item per call: the loop stays tight and allocates nothing.
   */
  emitInto(out: T[], until: number): MergeStop {
    if (this.waitingCount > 0) return this.need();
    const tree = this.tree;
    const sources = this.sources;
    while (out.length < until) {
      const source = tree.winner;
      if (source < 0) return DONE;
      const state = sources[source]!;
      out.push(state.items[state.position++]!);
      if (state.position < state.items.length) {
        tree.advance(source, this.keyOf(state.items[state.position]!));
        continue;
      }
      state.items = [];
      state.position = 0;
      if (state.exhausted) tree.advance(source, undefined);
      else {
        this.waiting[source] = true;
        this.waitingCount++;
        // A full output needs nothing more now: the source is read only if more is wanted.
        return out.length < until ? this.need() : FULL;
      }
    }
    return FULL;
  }

  private need(): MergeStop {
    const sources: number[] = [];
    for (let source = 0; source < this.waiting.length; source++) if (this.waiting[source]) sources.push(source);
    return { kind: 'need', sources };
  }
}
