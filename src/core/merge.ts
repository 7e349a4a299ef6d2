import { internalError } from './errors';
import { LoserTree } from './loser-tree';
import { packed } from './packed';
import type { OrderDirection } from './order-encoding';

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
 * A lazy k-way merge over sorted shards, a pure state machine fed with `supply`, drained with `emitInto`. Exact:
 * it emits only when every source not exhausted has a buffered head, asking ("need") for those run dry, and for
 * no other, so reads stay proportional to output. Keys must be unique across sources (index sort keys are).
 */
export class KWayMerge<T> {
  private readonly sources: SourceState<T>[];
  private readonly tree: LoserTree;
  /** Sources whose buffer ran dry and that may hold more: nothing is emitted until they are supplied. */
  private readonly waiting: boolean[];
  private waitingCount: number;
  private built = false;

  constructor(
    sourceCount: number,
    private readonly keyOf: (item: T) => string,
    direction: OrderDirection,
  ) {
    this.sources = Array.from({ length: sourceCount }, () => ({ items: [], position: 0, exhausted: false }));
    this.tree = new LoserTree(sourceCount, direction);
    this.waiting = packed(sourceCount, true);
    this.waitingCount = sourceCount;
  }

  /** The next sorted page of `source`, or (a refill wave) one continuing right after its last buffered item. */
  supply(source: number, items: T[], exhausted: boolean): void {
    const state = this.sources[source]!;
    if (!this.waiting[source]) {
      if (state.exhausted || state.position >= state.items.length) {
        throw internalError(`merge: source ${source} was not waiting for items`);
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

  buffered(source: number): number {
    const state = this.sources[source]!;
    return state.items.length - state.position;
  }

  hasMore(source: number): boolean {
    return !this.sources[source]!.exhausted;
  }

  /** Moves items onto `out` until it holds `until`: a batch, so the loop stays tight and allocates nothing. */
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
    return { kind: 'need', sources: this.waiting.flatMap((waiting, source) => (waiting ? [source] : [])) };
  }
}
