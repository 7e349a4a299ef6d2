import { compareKeys, sortsByCodeUnit } from './collation';
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
  /** The key of each source's head item: read once per item, not once per comparison. */
  private readonly heads: string[];
  /** Whether that key sorts by code unit (see sortsByCodeUnit): then `<` compares it. */
  private readonly plain: boolean[];

  constructor(
    sourceCount: number,
    private readonly keyOf: (item: T) => string,
    order: SortOrder,
  ) {
    this.sources = Array.from({ length: sourceCount }, () => ({ items: [], position: 0, exhausted: false }));
    const heads: string[] = new Array<string>(sourceCount).fill('');
    const plain: boolean[] = new Array<boolean>(sourceCount).fill(true);
    this.heads = heads;
    this.plain = plain;
    // Keys are unique, so "a before b" is a strict comparison either way round.
    this.heap = new IndexHeap(
      order === 'asc'
        ? (a, b) => (plain[a]! && plain[b]! ? heads[a]! < heads[b]! : compareKeys(heads[a]!, heads[b]!) < 0)
        : (a, b) => (plain[a]! && plain[b]! ? heads[b]! < heads[a]! : compareKeys(heads[b]!, heads[a]!) < 0),
    );
    for (let source = 0; source < sourceCount; source++) this.waiting.add(source);
  }

  /**
   * Hands the merge the next sorted page of `source`; `exhausted` when the source has
   * no more. A source that still holds buffered items may be topped up ahead of need
   * (a refill wave): the page must continue right after its last buffered item.
   */
  supply(source: number, items: T[], exhausted: boolean): void {
    const state = this.sources[source]!;
    if (!this.waiting.has(source)) {
      if (state.exhausted || state.position >= state.items.length) {
        throw new Error(`merge: source ${source} was not waiting for items`);
      }
      // Its head, and so the heap, stay as they are: the new items all come after it.
      for (const item of items) state.items.push(item);
      state.exhausted = exhausted;
      return;
    }
    state.items = items;
    state.position = 0;
    state.exhausted = exhausted;
    if (items.length > 0) {
      this.waiting.delete(source);
      this.setHead(source, this.keyOf(items[0]!));
      this.heap.push(source);
    } else if (exhausted) {
      this.waiting.delete(source);
    }
  }


  get sourceCount(): number {
    return this.sources.length;
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
      this.setHead(source, this.keyOf(state.items[state.position]!));
      this.heap.replaceTop(source);
    } else {
      this.heap.pop();
      state.items = [];
      state.position = 0;
      if (!state.exhausted) this.waiting.add(source);
    }
    return { kind: 'item', item, source };
  }

  private setHead(source: number, key: string): void {
    this.heads[source] = key;
    this.plain[source] = sortsByCodeUnit(key);
  }
}
