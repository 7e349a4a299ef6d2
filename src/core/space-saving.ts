/**
 * Space-Saving (Metwally, Agrawal, El Abbadi 2005): the k most frequent keys of a stream in memory bounded
 * by k. A counter overestimates its key's count by at most its `error`, at most total ÷ k.
 */

export interface HeavyHitter {
  key: string;
  /** An upper bound on the key's true count. */
  count: number;
  /** How much of `count` may belong to other keys: true count ≥ count − error. */
  error: number;
}

/** A sketch as it travels (fleet load records), enough to merge it with others. */
export interface SketchSummary {
  readonly capacity: number;
  readonly total: number;
  readonly counters: readonly HeavyHitter[];
}

interface Counter extends HeavyHitter {
  slot: number;
}

export class SpaceSaving {
  private readonly counters = new Map<string, Counter>();
  /** A min-heap by count: the root is the counter the next new key takes over. */
  private readonly heap: Counter[] = [];
  private seen = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
  }

  get total(): number {
    return this.seen;
  }

  /** The most an absent key can have been seen, and the bound on every counter's error. */
  get errorBound(): number {
    return this.heap.length < this.capacity ? 0 : this.heap[0]!.count;
  }

  add(key: string, weight = 1): void {
    if (!(weight > 0)) return;
    this.seen += weight;
    const counter = this.counters.get(key);
    if (counter) {
      counter.count += weight;
      this.siftDown(counter.slot);
    } else if (this.heap.length < this.capacity) {
      this.insert({ key, count: weight, error: 0 });
    } else {
      // The new key inherits the smallest counter: it may have been seen that often before.
      const least = this.heap[0]!;
      this.counters.delete(least.key);
      least.error = least.count;
      least.count += weight;
      least.key = key;
      this.counters.set(key, least);
      this.siftDown(0);
    }
  }

  /** Largest count first (ties by key, so the order is stable). */
  top(limit = this.capacity): HeavyHitter[] {
    return [...this.heap]
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, limit)
      .map(({ key, count, error }) => ({ key, count, error }));
  }

  /**
   * The mergeable summary of Agarwal et al. 2012: a key missing from a full side is charged that
   * side's smallest count as both count and error, then the k largest are kept; the bounds hold.
   */
  merge(other: SpaceSaving): void {
    const mineAbsent = this.errorBound;
    const theirsAbsent = other.errorBound;
    const keys = new Set([...this.heap, ...other.heap].map((c) => c.key));
    const merged = [...keys].map((key): HeavyHitter => {
      const mine = this.counters.get(key);
      const theirs = other.counters.get(key);
      return {
        key,
        count: (mine?.count ?? mineAbsent) + (theirs?.count ?? theirsAbsent),
        error: (mine?.error ?? mineAbsent) + (theirs?.error ?? theirsAbsent),
      };
    });
    const total = this.seen + other.seen;
    this.clear();
    this.seen = total;
    for (const hitter of merged.sort((a, b) => b.count - a.count).slice(0, this.capacity)) this.insert(hitter);
  }

  summary(): SketchSummary {
    return { capacity: this.capacity, total: this.seen, counters: this.top() };
  }

  static fromSummary(summary: SketchSummary): SpaceSaving {
    const sketch = new SpaceSaving(summary.capacity);
    for (const hitter of summary.counters.slice(0, summary.capacity)) sketch.insert(hitter);
    sketch.seen = summary.total;
    return sketch;
  }

  clear(): void {
    this.counters.clear();
    this.heap.length = 0;
    this.seen = 0;
  }

  private insert({ key, count, error }: HeavyHitter): void {
    const counter: Counter = { key, count, error, slot: this.heap.length };
    this.counters.set(key, counter);
    this.heap.push(counter);
    this.siftUp(counter.slot);
  }

  private siftUp(slot: number): void {
    const heap = this.heap;
    const moving = heap[slot]!;
    while (slot > 0) {
      const parent = (slot - 1) >> 1;
      const above = heap[parent]!;
      if (above.count <= moving.count) break;
      heap[slot] = above;
      above.slot = slot;
      slot = parent;
    }
    heap[slot] = moving;
    moving.slot = slot;
  }

  private siftDown(slot: number): void {
    const heap = this.heap;
    const moving = heap[slot]!;
    const n = heap.length;
    for (;;) {
      const left = 2 * slot + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && heap[right]!.count < heap[left]!.count ? right : left;
      const below = heap[child]!;
      if (below.count >= moving.count) break;
      heap[slot] = below;
      below.slot = slot;
      slot = child;
    }
    heap[slot] = moving;
    moving.slot = slot;
  }
}
