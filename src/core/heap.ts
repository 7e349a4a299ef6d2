/**
 * A binary min-heap of small integers (source indexes) ordered by `less`. The merge
 * keeps one entry per source whose next item is known, so the heap never holds more
 * than the shard count; `less` reads the sources' current heads.
 */
export class IndexHeap {
  private readonly entries: number[] = [];

  constructor(private readonly less: (a: number, b: number) => boolean) {}

  get size(): number {
    return this.entries.length;
  }

  peek(): number | undefined {
    return this.entries[0];
  }

  push(entry: number): void {
    const entries = this.entries;
    let i = entries.length;
    entries.push(entry);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(entry, entries[parent]!)) break;
      entries[i] = entries[parent]!;
      i = parent;
    }
    entries[i] = entry;
  }

  pop(): number | undefined {
    const entries = this.entries;
    const top = entries[0];
    const last = entries.pop();
    if (entries.length > 0 && last !== undefined) this.replaceTop(last);
    return top;
  }

  /**
   * Re-places the top entry after its key grew (cheaper than pop + push). Bottom-up
   * (Floyd): walk the smaller children down to a leaf, one comparison a level, then
   * climb back to where the entry belongs. In a merge the new head usually belongs
   * near the bottom, so this takes about half the comparisons of a plain sift-down.
   */
  replaceTop(entry: number): void {
    const entries = this.entries;
    const less = this.less;
    const n = entries.length;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && less(entries[child + 1]!, entries[child]!)) child++;
      entries[i] = entries[child]!;
      i = child;
    }
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(entry, entries[parent]!)) break;
      entries[i] = entries[parent]!;
      i = parent;
    }
    entries[i] = entry;
  }
}
