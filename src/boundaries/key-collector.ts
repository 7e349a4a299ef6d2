import { KeyArena, type KeySink, type LinesAdded } from './key-arena';
import type { KeyCounts, SortProgress } from './key-counts';
import { capacityFor, KeySketch, type SketchBounds } from './key-sketch';

export interface CollectorOptions {
  readonly shards: number;
  /** Cut from a sketch within this many bytes (--max-memory). */
  readonly sketchBytes?: number;
  /** Without --max-memory: the exact arena's size past which it turns into a sketch. */
  readonly exactLimitBytes: number;
  /** The sketch's budget when the exact count outgrows its limit. */
  readonly fallbackSketchBytes: number;
}

export interface CollectedKeys {
  readonly keys: KeyCounts;
  /** Set when the keys were sketched: what the counts are good for. */
  readonly sketch?: SketchBounds;
}

/** Exact while the keys fit, then (or from the start with --max-memory) a sketch the keys read so far move into. */
export class KeyCollector implements KeySink {
  private arena: KeyArena | undefined;
  private sketch: KeySketch | undefined;
  private parts = 0;

  constructor(private readonly options: CollectorOptions) {
    if (options.sketchBytes !== undefined)
      this.sketch = new KeySketch(capacityFor(options.sketchBytes), options.shards);
    else this.arena = new KeyArena();
  }

  get sketched(): boolean {
    return this.sketch !== undefined;
  }

  add(key: string): void {
    if (this.sketch) this.sketch.add(key);
    else {
      this.arena!.add(key);
      this.checkLimit();
    }
  }

  addLines(text: string, ascii: boolean, firstLine: boolean): LinesAdded {
    if (this.sketch) return this.sketch.addLines(text, ascii, firstLine);
    const added = this.arena!.addLines(text, ascii, firstLine);
    this.checkLimit();
    return added;
  }

  /** Where one part of the input (one file of an export) goes: when sketching, a sketch `endPart` merges in. */
  beginPart(): KeySink {
    if (!this.sketch) return this;
    return new KeySketch(this.sketch.quantiles.capacity, this.options.shards, 0x9e3779b9 + ++this.parts);
  }

  endPart(part: KeySink): void {
    if (part !== this) this.sketch!.merge(part as KeySketch);
  }

  finish(progress?: SortProgress): CollectedKeys {
    if (this.sketch) return { keys: this.sketch.keyCounts(this.options.shards), sketch: this.sketch.bounds };
    return { keys: this.arena!.sorted(progress) };
  }

  private checkLimit(): void {
    const arena = this.arena!;
    if (arena.memoryBytes <= this.options.exactLimitBytes) return;
    const sketch = new KeySketch(capacityFor(this.options.fallbackSketchBytes), this.options.shards);
    for (let id = 0; id < arena.size; id++) sketch.add(arena.key(id));
    this.arena = undefined;
    this.sketch = sketch;
  }
}
