import { createRequire } from 'node:module';

interface Closable {
  close(): Promise<void>;
  return?: () => Promise<void>;
}

/**
 * dynalite 4 closes the LevelDB iterator behind a Query or Scan stream by calling
 * `iterator.return()`, which abstract-level 3 iterators do not have (they have
 * `close()`). So no iterator was ever closed: each stayed in the database's set of
 * open resources with its read-ahead cache, and the embedded engine's memory grew
 * with every query (how much: docs/performance.md). Giving the iterators a `return`
 * that closes them fixes it; idempotent, and a no-op once dynalite calls `close`.
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
