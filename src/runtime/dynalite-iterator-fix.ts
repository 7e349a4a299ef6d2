import { createRequire } from 'node:module';

interface Closable {
  close(): Promise<void>;
  return?: () => Promise<void>;
}

/**
 * dynalite 4 closes the LevelDB iterator behind a Query or Scan by calling `iterator.return()`, which
 * abstract-level 3 iterators lack (they have `close()`): each query would leak an open iterator and its
 * read-ahead cache (docs/performance.md). A `return` that closes them; idempotent.
 */
export function patchLevelIterators(): void {
  const require = createRequire(import.meta.url);
  // The abstract-level that dynalite's LevelDB bindings use (resolved from dynalite, not from us).
  const fromDynalite = createRequire(require.resolve('dynalite'));
  const level = fromDynalite('abstract-level') as Record<string, { prototype: Closable } | undefined>;
  for (const name of ['AbstractIterator', 'AbstractKeyIterator', 'AbstractValueIterator']) {
    const prototype = level[name]?.prototype;
    if (prototype && typeof prototype.return !== 'function') {
      prototype.return = function (this: Closable) {
        return this.close();
      };
    }
  }
}
