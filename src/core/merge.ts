import { compareKeys } from './collation';
import { IndexHeap } from './heap';
import type { SortOrder } from './plan';

/** What the merge needs next: an item, more items from some sources, or nothing. */
export type MergeStep<T> =
  | { readonly kind: 'item'; readonly item: T; readonly source: number }
  | { readonly kind: 'need'; readonly sources: readonly number[] }
  | { readonly kind: 'done' };

interface SourceState<T> {
  items: T[];
  position: number;
  exhausted: boolean;
}

/**
 * A lazy k-way merge over sorted sources (shards), as a pure state machine: the
 * driver feeds it pages with `supply` and pulls with `next`; it never does I/O.
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
  private readonly heap: IndexHeap;
  private readonly waiting = new Set<number>();

  constructor(
    sourceCount: number,
    private readonly keyOf: (item: T) => string,
    order: SortOrder,
  ) {
    this.sources = Array.from({ length: sourceCount }, () => ({ items: [], position: 0, exhausted: false }));
    const sign = order === 'asc' ? 1 : -1;
    this.heap = new IndexHeap((a, b) => sign * compareKeys(this.headKey(a), this.headKey(b)) < 0);
    for (let source = 0; source < sourceCount; source++) this.waiting.add(source);
  }

  /** Hands the merge the next sorted page of `source`; `exhausted` when the source has no more. */
  supply(source: number, items: T[], exhausted: boolean): void {
    const state = this.sources[source]!;
    if (!this.waiting.has(source)) throw new Error(`merge: source ${source} was not waiting for items`);
    state.items = items;
    state.position = 0;
    state.exhausted = exhausted;
    if (items.length > 0) {
      this.waiting.delete(source);
      this.heap.push(source);
    } else if (exhausted) {
      this.waiting.delete(source);
    }
  }

  /** Sources whose next items must be fetched before the merge can go on. */
  get pending(): readonly number[] {
    return [...this.waiting];
  }

  /** Items buffered for `source` and not yet emitted. */
  buffered(source: number): number {
    const state = this.sources[source]!;
    return state.items.length - state.position;
  }

  isExhausted(source: number): boolean {
    const state = this.sources[source]!;
    return state.exhausted && state.position >= state.items.length;
  }

  next(): MergeStep<T> {
    if (this.waiting.size > 0) return { kind: 'need', sources: [...this.waiting] };
    const source = this.heap.peek();
    if (source === undefined) return { kind: 'done' };
    const state = this.sources[source]!;
    const item = state.items[state.position++]!;
    if (state.position < state.items.length) {
      this.heap.replaceTop(source);
    } else {
      this.heap.pop();
      state.items = [];
      state.position = 0;
      if (!state.exhausted) this.waiting.add(source);
    }
    return { kind: 'item', item, source };
  }

  private headKey(source: number): string {
    const state = this.sources[source]!;
    return this.keyOf(state.items[state.position]!);
  }
}
