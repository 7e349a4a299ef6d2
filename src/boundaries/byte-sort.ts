/**
 * Sorts keys held as UTF-8 byte ranges of one buffer in byte order (code point order, DynamoDB's),
 * with no string per key: a multikey quicksort (Bentley & Sedgewick 1997) on one 32-bit word at a
 * time, the words of a range read once into a parallel array so partitioning walks memory in order.
 * Keys never hold a 0 byte (U+0000 is refused before), so 0 pads a key's end and a shorter key sorts first.
 */

export interface ByteKeys {
  readonly bytes: Uint8Array;
  readonly starts: Int32Array;
  readonly lengths: Int32Array;
}

/** Below this many keys a range is finished by insertion sort. */
const SMALL = 16;

/**
 * Sorts `order` (key ids) in place. Returns which positions hold the same key as the one
 * before (1): found as the sort goes, as comparing neighbours afterwards reads every key again.
 */
export function sortByBytes(keys: ByteKeys, order: Int32Array): Uint8Array {
  const words = new Int32Array(order.length);
  const repeats = new Uint8Array(order.length);
  fillWords(keys, order, words, 0, order.length, 0);
  // An explicit stack of (lo, hi, depth): long shared prefixes must not overflow the call stack.
  const stack = bucketByFirstTwoBytes(order, words);
  let seed = 0x2545f491;
  while (stack.length > 0) {
    const depth = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    if (hi - lo <= SMALL) {
      insertionSort(keys, order, words, lo, hi, depth);
      for (let i = lo + 1; i < hi; i++) {
        if (words[i] === words[i - 1] && compareFrom(keys, order[i - 1]!, order[i]!, depth) === 0) repeats[i] = 1;
      }
      continue;
    }
    // Pseudo-random pivots: partitioning leaves patterns that fixed places (first, middle, last) split badly.
    const n = hi - lo;
    seed = xorshift(seed);
    const a = words[lo + ((seed >>> 0) % n)]!;
    seed = xorshift(seed);
    const b = words[lo + ((seed >>> 0) % n)]!;
    seed = xorshift(seed);
    const pivot = medianOfThree(a, b, words[lo + ((seed >>> 0) % n)]!);
    // Dutch flag partition: [lo, lt) < pivot, [lt, i) = pivot, (gt, hi) > pivot.
    let lt = lo;
    let gt = hi - 1;
    let i = lo;
    while (i <= gt) {
      const w = words[i]!;
      if (w < pivot) {
        swap(order, words, i++, lt++);
      } else if (w > pivot) {
        swap(order, words, i, gt--);
      } else i++;
    }
    if (gt + 1 < hi) stack.push(gt + 1, hi, depth);
    if (lo < lt) stack.push(lo, lt, depth);
    // The equal part goes on to the next word, unless its keys have ended (a 0 byte): then they are all one key.
    if (endsKey(pivot)) repeats.fill(1, lt + 1, gt + 1);
    else if (gt + 1 - lt > 1) {
      fillWords(keys, order, words, lt, gt + 1, depth + 4);
      stack.push(lt, gt + 1, depth + 4);
    }
  }
  return repeats;
}

/**
 * One counting-sort pass on the first two bytes instead of the sixteen or so partition
 * passes: returns the stack of buckets still to sort (their words stay valid, at depth 0).
 */
function bucketByFirstTwoBytes(order: Int32Array, words: Int32Array): number[] {
  const n = order.length;
  const starts = new Int32Array(65_537);
  for (let i = 0; i < n; i++) starts[((words[i]! ^ 0x80000000) >>> 16) + 1]!++;
  for (let b = 1; b <= 65_536; b++) starts[b]! += starts[b - 1]!;
  const next = starts.slice(0, 65_536);
  const sortedOrder = new Int32Array(n);
  const sortedWords = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const w = words[i]!;
    const at = next[(w ^ 0x80000000) >>> 16]!++;
    sortedOrder[at] = order[i]!;
    sortedWords[at] = w;
  }
  order.set(sortedOrder);
  words.set(sortedWords);
  const stack: number[] = [];
  for (let b = 0; b < 65_536; b++) if (starts[b + 1]! - starts[b]! > 1) stack.push(starts[b]!, starts[b + 1]!, 0);
  return stack;
}

function swap(order: Int32Array, words: Int32Array, i: number, j: number): void {
  const id = order[i]!;
  order[i] = order[j]!;
  order[j] = id;
  const w = words[i]!;
  words[i] = words[j]!;
  words[j] = w;
}

/** True when the word's last byte is the padding: the key ends inside it. */
function endsKey(word: number): boolean {
  return ((word ^ 0x80000000) & 0xff) === 0;
}

/** Bytes depth..depth+3 of each key as a big-endian word, 0-padded, sign bit flipped for byte order. */
function fillWords(keys: ByteKeys, order: Int32Array, words: Int32Array, lo: number, hi: number, depth: number): void {
  const { bytes, starts, lengths } = keys;
  for (let i = lo; i < hi; i++) {
    const id = order[i]!;
    const left = lengths[id]! - depth;
    const at = starts[id]! + depth;
    let word = 0;
    if (left >= 4) word = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
    else {
      for (let k = 0; k < 4; k++) word = (word << 8) | (k < left ? bytes[at + k]! : 0);
    }
    words[i] = word ^ 0x80000000;
  }
}

/** Marsaglia's xorshift32: cheap, and fixed, so a run is repeatable. */
export function xorshift(x: number): number {
  x ^= x << 13;
  x ^= x >>> 17;
  return x ^ (x << 5);
}

function medianOfThree(a: number, b: number, c: number): number {
  if (a < b) return b < c ? b : a < c ? c : a;
  return a < c ? a : b < c ? c : b;
}

function insertionSort(
  keys: ByteKeys,
  order: Int32Array,
  words: Int32Array,
  lo: number,
  hi: number,
  depth: number,
): void {
  for (let i = lo + 1; i < hi; i++) {
    const id = order[i]!;
    const w = words[i]!;
    let j = i - 1;
    while (j >= lo && (words[j]! > w || (words[j] === w && compareFrom(keys, order[j]!, id, depth) > 0))) {
      order[j + 1] = order[j]!;
      words[j + 1] = words[j]!;
      j--;
    }
    order[j + 1] = id;
    words[j + 1] = w;
  }
}

/** Byte order of keys `a` and `b`, which agree on their first `depth` bytes. */
export function compareFrom(keys: ByteKeys, a: number, b: number, depth = 0): number {
  const { bytes, starts, lengths } = keys;
  const la = lengths[a]!;
  const lb = lengths[b]!;
  const n = Math.min(la, lb);
  const sa = starts[a]!;
  const sb = starts[b]!;
  for (let i = depth; i < n; i++) {
    const d = bytes[sa + i]! - bytes[sb + i]!;
    if (d !== 0) return d;
  }
  return la - lb;
}
