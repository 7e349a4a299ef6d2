import { compareKeys } from '../core/collation';
import { xorshift } from './byte-sort';
import { KeyArena, type LinesAdded } from './key-arena';

/**
 * A mergeable quantile sketch of keys in code point order: KLL's compactor hierarchy, every level
 * the same capacity (docs/boundaries.md, "Bounded memory"). A compaction at level h moves any key's
 * rank by at most 2^h: `errorBound` adds those up, a guaranteed bound. Levels hold UTF-8 bytes
 * (`KeyArena`), whose byte order is code point order, so no garbage whatever the input's size.
 */
export class QuantileSketch {
  private readonly levels: KeyArena[] = [new KeyArena()];
  private items = 0;
  private bound = 0;
  private random: number;

  constructor(
    readonly capacity: number,
    seed = 0x9e3779b9,
  ) {
    if (!Number.isInteger(capacity) || capacity < 2) throw new RangeError('capacity must be an integer >= 2');
    this.random = seed | 1;
  }

  /** Items added (and merged). */
  get total(): number {
    return this.items;
  }

  /** No rank (items at or below a key) is off by more than this many items. */
  get errorBound(): number {
    return this.bound;
  }

  /** Keys held. */
  get retained(): number {
    return this.levels.reduce((n, level) => n + level.size, 0);
  }

  add(key: string): void {
    this.levels[0]!.add(key);
    this.items++;
    if (this.levels[0]!.size >= this.capacity) this.compact(0);
  }

  /** A block of normalized lines, as `KeyArena.addLines`. */
  addLines(text: string, ascii: boolean, firstLine: boolean): LinesAdded {
    const added = this.levels[0]!.addLines(text, ascii, firstLine);
    this.items += added.added;
    if (this.levels[0]!.size >= this.capacity) this.compact(0);
    return added;
  }

  /** Folds `other` in; both may have been built from any parts of the input. */
  merge(other: QuantileSketch): void {
    other.levels.forEach((level, h) => {
      if (h === this.levels.length) this.levels.push(new KeyArena());
      for (let id = 0; id < level.size; id++) this.levels[h]!.copyKey(level, id);
    });
    this.items += other.items;
    this.bound += other.bound;
    for (let h = 0; h < this.levels.length; h++) if (this.levels[h]!.size >= this.capacity) this.compact(h);
  }

  /** The held keys in code point order, equal keys merged, each with the items it stands for. */
  weighted(): { values: string[]; weights: number[] } {
    // Each level sorted on its own, then merged: strings only for distinct keys.
    const runs = this.levels.map((level, h) => {
      const keys: string[] = [];
      const weights: number[] = [];
      level.runs((id, count) => {
        keys.push(level.key(id));
        weights.push(count * 2 ** h);
      });
      return { keys, weights, next: 0 };
    });
    const values: string[] = [];
    const weights: number[] = [];
    for (;;) {
      let best: (typeof runs)[number] | undefined;
      for (const run of runs) {
        if (run.next < run.keys.length && (!best || compareKeys(run.keys[run.next]!, best.keys[best.next]!) < 0))
          best = run;
      }
      if (!best) break;
      const key = best.keys[best.next]!;
      const weight = best.weights[best.next++]!;
      if (values.at(-1) === key) weights[weights.length - 1]! += weight;
      else {
        values.push(key);
        weights.push(weight);
      }
    }
    return { values, weights };
  }

  private compact(h: number): void {
    const level = this.levels[h]!;
    if (h + 1 === this.levels.length) this.levels.push(new KeyArena());
    const up = this.levels[h + 1]!;
    const keep = new KeyArena();
    const odd = level.size % 2 === 1;
    // Sorted positions p with p % 2 === coin move up; with an odd count the last one stays.
    const coin = this.coin();
    const last = level.size - 1;
    let p = 0;
    level.runs((id, count) => {
      for (let i = 0; i < count; i++, p++) {
        if (odd && p === last) keep.copyKey(level, id);
        else if (p % 2 === coin) up.copyKey(level, id);
      }
    });
    level.clear();
    if (keep.size > 0) level.copyKey(keep, 0);
    this.bound += 2 ** h;
    if (up.size >= this.capacity) this.compact(h + 1);
  }

  /** 0 or 1 from a xorshift32 stream: fixed per seed, so a run is repeatable. */
  private coin(): number {
    this.random = xorshift(this.random);
    return (this.random >>> 16) & 1;
  }
}
