import { sortByBytes, type ByteKeys } from './byte-sort';
import type { SortedView } from '../core/collation';
import type { KeyCounts, SortProgress } from './key-counts';
import { ascendingRuns, mergeRuns, orderRepeats } from './run-merge';

/** What a block of lines gave: keys added, blank lines skipped, lines with U+0000 refused. */
export interface LinesAdded {
  readonly added: number;
  readonly blank: number;
  readonly nul: number;
}

/** Where read keys go: the exact arena, or a bounded-memory sketch. */
export interface KeySink {
  /** One normalized key (well-formed, no U+0000). */
  add(key: string): void;
  /** A block of normalized '\n'-separated lines, as `KeyArena.addLines`. */
  addLines(text: string, ascii: boolean, firstLine: boolean): LinesAdded;
}

/** Normalized keys as UTF-8 bytes in one growing buffer, for the exact count: no string per key. */
export class KeyArena implements KeySink {
  private bytes = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private starts = new Int32Array(1 << 16);
  private lengths = new Int32Array(1 << 16);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Bytes held (keys and their offsets), to decide when to switch to a sketch. */
  get memoryBytes(): number {
    return this.bytes.length + this.starts.length * 8;
  }

  add(key: string): void {
    this.reserve(key.length * 3);
    const written = this.bytes.write(key, this.used, 'utf8');
    this.push(this.used, written);
    this.used += written;
  }

  /**
   * Adds every line of normalized text ('\n'-separated, the last line complete, a '\r' before the '\n'
   * dropped), skipping blank lines and refusing lines holding U+0000; `ascii`: copied a byte a character.
   */
  addLines(text: string, ascii: boolean, firstLine: boolean): LinesAdded {
    this.reserve(ascii ? text.length : text.length * 3);
    const before = this.count;
    const from = this.used;
    const end = from + this.bytes.write(text, from, ascii ? 'latin1' : 'utf8');
    const bytes = this.bytes.subarray(0, end);
    let blank = 0;
    let nul = 0;
    let start = from;
    // A byte-order mark opens the file: not part of the first key.
    if (firstLine && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) start += 3;
    let zero = bytes.indexOf(0, start);
    while (start < end) {
      let stop = bytes.indexOf(10, start);
      if (stop < 0) stop = end;
      const next = stop + 1;
      if (stop > start && bytes[stop - 1] === 13) stop--;
      if (stop === start) blank++;
      else if (zero >= 0 && zero < stop) {
        nul++;
        zero = bytes.indexOf(0, next);
      } else this.push(start, stop - start);
      start = next;
    }
    this.used = end;
    return { added: this.count - before, blank, nul };
  }

  /** Key `id` (ids count up in the order added). */
  key(id: number): string {
    const start = this.starts[id]!;
    return this.bytes.toString('utf8', start, start + this.lengths[id]!);
  }

  /** Appends key `id` of `from` (bytes copied as they are). */
  copyKey(from: KeyArena, id: number): void {
    const length = from.lengths[id]!;
    this.reserve(length);
    const start = from.starts[id]!;
    from.bytes.copy(this.bytes, this.used, start, start + length);
    this.push(this.used, length);
    this.used += length;
  }

  /** Forgets every key, keeping the memory for the next ones. */
  clear(): void {
    this.used = 0;
    this.count = 0;
  }

  /** Visits each distinct key once, in code point order, with one of its ids and how often it was added. */
  runs(visit: (id: number, count: number) => void): void {
    const { order, repeats } = this.sortIds();
    for (let i = 0; i < order.length; ) {
      let end = i + 1;
      while (end < order.length && repeats[end] === 1) end++;
      visit(order[i]!, end - i);
      i = end;
    }
  }

  sorted(progress?: SortProgress): KeyCounts {
    progress?.(0, 2);
    const { keys, order, repeats } = this.sortIds();
    progress?.(1, 2);
    let distinct = 0;
    const counts = new Uint32Array(order.length);
    for (let i = 0; i < order.length; i++) {
      if (repeats[i] === 1) counts[distinct - 1]!++;
      else {
        order[distinct] = order[i]!;
        counts[distinct++] = 1;
      }
    }
    progress?.(2, 2);
    return {
      values: arenaValues(keys, order.subarray(0, distinct)),
      counts: counts.subarray(0, distinct),
      total: order.length,
    };
  }

  /** The key ids in byte order, and which equal the one before: merged from a few ascending runs, or sorted. */
  private sortIds(): { keys: ByteKeys; order: Int32Array; repeats: Uint8Array } {
    const keys: ByteKeys = { bytes: this.bytes, starts: this.starts, lengths: this.lengths };
    const runs = ascendingRuns(keys, this.count);
    if (runs) {
      const order = mergeRuns(keys, runs);
      return { keys, order, repeats: orderRepeats(keys, order) };
    }
    const order = new Int32Array(this.count);
    for (let i = 0; i < order.length; i++) order[i] = i;
    return { keys, order, repeats: sortByBytes(keys, order) };
  }

  private push(start: number, length: number): void {
    if (this.count === this.starts.length) {
      this.starts = grown(this.starts);
      this.lengths = grown(this.lengths);
    }
    this.starts[this.count] = start;
    this.lengths[this.count++] = length;
  }

  private reserve(extra: number): void {
    if (this.used + extra <= this.bytes.length) return;
    const size = Math.max(this.bytes.length * 2, this.used + extra);
    if (size > 2 ** 31 - 1) throw new Error('more than 2 GiB of keys: use --max-memory to cut from a sketch');
    const next = Buffer.allocUnsafe(size);
    this.bytes.copy(next, 0, 0, this.used);
    this.bytes = next;
  }
}

function grown(array: Int32Array): Int32Array<ArrayBuffer> {
  const next = new Int32Array(array.length * 2);
  next.set(array);
  return next;
}

/** The distinct keys in order, decoded from their bytes only when read. */
function arenaValues({ bytes, starts, lengths }: ByteKeys, ids: Int32Array): SortedView {
  let lastIndex = -1;
  let last: string | undefined;
  return {
    length: ids.length,
    at(index) {
      const i = index < 0 ? index + ids.length : index;
      // The cut reads neighbours in turn (v - 1 and v, then v and v + 1): decode each once.
      if (i === lastIndex) return last;
      const id = ids[i];
      if (id === undefined) return undefined;
      lastIndex = i;
      last = (bytes as Buffer).toString('utf8', starts[id]!, starts[id]! + lengths[id]!);
      return last;
    },
  };
}
