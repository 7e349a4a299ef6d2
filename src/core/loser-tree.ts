import { unitRank } from './collation';
import type { OrderDirection } from './order-encoding';
import { packed } from './packed';

/** Code of a source with no head: loses to every key. */
const EXHAUSTED = Number.POSITIVE_INFINITY;
/** One offset step outweighs every unit value (values run 0 … 0x10001). */
const OFFSET_STEP = 0x20000;

/**
 * The merge's priority queue: a tree of losers over the head keys of k sorted sources, with offset-value codes
 * (Graefe & Do, 2023), in code point order. Each head carries a code relative to the last key output: the offset
 * of the first differing unit and the unit there, packed so that a smaller code means an earlier key; equal codes
 * are compared past the shared offset, so most matches are one number comparison. The codes stay valid: a new
 * head's base is the key just output, which every loser on the winner's path lost to; a key that loses to a
 * smaller code keeps its code relative to the winner.
 */
export class LoserTree {
  /** `nodes[0]` is the winner; `nodes[p]`, 1 ≤ p < k, the loser of the match at p. Leaf i sits at k + i. */
  private readonly nodes: number[];
  /** Each source's head: its key, its code, and the offset part of the code (where a tie resumes). */
  private readonly keys: string[];
  private readonly codes: number[];
  private readonly offsets: number[];
  /** A unit's value is origin + sign × rank, so that the unit sorting first has the smallest value. */
  private readonly valueOrigin: number;
  private readonly valueSign: number;
  /** The value of "the key ends here", which sorts before every unit. */
  private readonly endValue: number;
  private readonly descending: boolean;

  constructor(
    private readonly size: number,
    direction: OrderDirection,
  ) {
    this.nodes = packed(Math.max(size, 1), 0);
    this.keys = packed(size, '');
    this.codes = packed(size, EXHAUSTED);
    this.offsets = packed(size, 0);
    this.descending = direction === 'desc';
    this.valueOrigin = this.descending ? 0x10000 : 1;
    this.valueSign = this.descending ? -1 : 1;
    this.endValue = this.descending ? 0x10001 : 0;
  }

  /** The source whose head comes first, or -1 when every source is exhausted. */
  get winner(): number {
    const winner = this.nodes[0]!;
    return winner >= this.size || this.codes[winner] === EXHAUSTED ? -1 : winner;
  }

  /** A source's first head (`undefined`: none), before `build`. */
  place(source: number, key: string | undefined): void {
    if (key === undefined) this.codes[source] = EXHAUSTED;
    else {
      this.keys[source] = key;
      this.setCode(source, key, 0);
    }
  }

  build(): void {
    const size = this.size;
    if (size === 1) {
      this.nodes[0] = 0;
      return;
    }
    // winners[p]: the winner of the subtree under node p (leaves are sources).
    const winners = packed(2 * size, 0);
    for (let i = 0; i < size; i++) winners[size + i] = i;
    for (let p = size - 1; p >= 1; p--) {
      const left = winners[2 * p]!;
      const right = winners[2 * p + 1]!;
      const x = this.codes[left]!;
      const y = this.codes[right]!;
      const leftFirst = x !== y ? x < y : x === EXHAUSTED || this.breakTie(left, right);
      this.nodes[p] = leftFirst ? right : left;
      winners[p] = leftFirst ? left : right;
    }
    this.nodes[0] = winners[1]!;
  }

  /**
   * Moves the winner `source` (also when it ran dry and was refilled: nothing is output
   * meanwhile) on to its next head `key` (`undefined`: none) and replays its path.
   */
  advance(source: number, key: string | undefined): void {
    if (key === undefined) this.codes[source] = EXHAUSTED;
    else {
      const offset = firstDifference(key, this.keys[source]!, 0);
      this.keys[source] = key;
      this.setCode(source, key, offset);
    }
    const nodes = this.nodes;
    const codes = this.codes;
    let candidate = source;
    for (let p = (this.size + source) >> 1; p >= 1; p >>= 1) {
      const stored = nodes[p]!;
      const a = codes[candidate]!;
      const b = codes[stored]!;
      if (a > b || (a === b && a !== EXHAUSTED && !this.breakTie(candidate, stored))) {
        nodes[p] = candidate;
        candidate = stored;
      }
    }
    nodes[0] = candidate;
  }

  /**
   * Equal codes: both keys share the base's prefix up to the offset and the unit there, so they
   * are compared from the next unit; the loser's code becomes relative to the winner. Keys are unique.
   */
  private breakTie(a: number, b: number): boolean {
    const keyA = this.keys[a]!;
    const keyB = this.keys[b]!;
    const i = firstDifference(keyA, keyB, this.offsets[a]! + 1);
    const aSmaller =
      i === keyA.length || (i < keyB.length && unitRank(keyA.charCodeAt(i)) < unitRank(keyB.charCodeAt(i)));
    const aWins = aSmaller !== this.descending;
    if (aWins) this.setCode(b, keyB, i);
    else this.setCode(a, keyA, i);
    return aWins;
  }

  /** A larger offset (closer to the base) comes first, then the unit there in the sort order. */
  private setCode(source: number, key: string, offset: number): void {
    const value =
      offset < key.length ? this.valueOrigin + this.valueSign * unitRank(key.charCodeAt(offset)) : this.endValue;
    this.codes[source] = value - offset * OFFSET_STEP;
    this.offsets[source] = offset;
  }
}

/** The first unit at or after `from` where `a` and `b` differ, or the shorter one's length. */
function firstDifference(a: string, b: string, from: number): number {
  const n = Math.min(a.length, b.length);
  let i = from;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
