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
  private sink: KeyArena | KeySketch;
  private parts = 0;

  constructor(private readonly options: CollectorOptions) {
    this.sink =
      options.sketchBytes === undefined
        ? new KeyArena()
        : new KeySketch(capacityFor(options.sketchBytes), options.shards);
  }

  get sketched(): boolean {
    return this.sink instanceof KeySketch;
  }

  add(key: string): void {
    this.sink.add(key);
    this.checkLimit();
  }

  addLines(text: string, ascii: boolean, firstLine: boolean): LinesAdded {
    const added = this.sink.addLines(text, ascii, firstLine);
    this.checkLimit();
    return added;
  }

  /** Where one part of the input (one file of an export) goes: when sketching, a sketch `endPart` merges in. */
  beginPart(): KeySink {
    if (this.sink instanceof KeyArena) return this;
    return new KeySketch(this.sink.quantiles.capacity, this.options.shards, 0x9e3779b9 + ++this.parts);
  }

  endPart(part: KeySink): void {
    if (part !== this) (this.sink as KeySketch).merge(part as KeySketch);
  }

  finish(progress?: SortProgress): CollectedKeys {
    if (this.sink instanceof KeyArena) return { keys: this.sink.sorted(progress) };
    return { keys: this.sink.keyCounts(this.options.shards), sketch: this.sink.bounds };
  }

  private checkLimit(): void {
    const arena = this.sink;
    if (!(arena instanceof KeyArena) || arena.memoryBytes <= this.options.exactLimitBytes) return;
    this.sink = new KeySketch(capacityFor(this.options.fallbackSketchBytes), this.options.shards);
    for (let id = 0; id < arena.size; id++) this.sink.add(arena.key(id));
  }
}
