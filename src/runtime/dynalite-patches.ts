import { createRequire } from 'node:module';
import { STORAGE_UNAVAILABLE } from '../store/dynamo-errors';

interface Closable {
  close(): Promise<void>;
  return?: () => Promise<void>;
}

type Write = (this: unknown, ...args: unknown[]) => unknown;

/** LevelDB's failures of the disk itself, not of a request: full, read-only, gone, damaged. */
const STORAGE_FAILURES = new Set(['LEVEL_IO_ERROR', 'LEVEL_CORRUPTION']);

const guarded = new WeakSet<object>();

/** Patches dynalite's LevelDB packages (resolved from dynalite, not from us) before it serves; idempotent. */
export function patchDynalite(): void {
  const require = createRequire(import.meta.url);
  const fromDynalite = createRequire(require.resolve('dynalite'));
  patchLevelIterators(fromDynalite('abstract-level') as Record<string, { prototype: Closable } | undefined>);
  guardStorage((fromDynalite('level') as { Level: { prototype: Record<string, Write> } }).Level.prototype);
}

/**
 * dynalite 4 closes the LevelDB iterator behind a Query or Scan by calling `iterator.return()`, which
 * abstract-level 3 iterators lack (they have `close()`): each query would leak an open iterator and its
 * read-ahead cache (docs/performance.md). A `return` that closes them.
 */
function patchLevelIterators(level: Record<string, { prototype: Closable } | undefined>): void {
  for (const name of ['AbstractIterator', 'AbstractKeyIterator', 'AbstractValueIterator']) {
    const prototype = level[name]?.prototype;
    if (prototype && typeof prototype.return !== 'function') {
      prototype.return = function (this: Closable) {
        return this.close();
      };
    }
  }
}

/**
 * dynalite throws an error without an HTTP status out of its request callback, so one failed LevelDB write (a
 * full disk) would kill the process. Here such a write fails as a 503 `StorageUnavailableException` and reads
 * go on; LevelDB takes writes again once space returns. A no-op for dynalite's in-memory store.
 */
function guardStorage(prototype: Record<string, Write>): void {
  if (guarded.has(prototype)) return;
  guarded.add(prototype);
  for (const name of ['put', 'del', 'batch'] as const) {
    const write = prototype[name]!;
    prototype[name] = function (this: unknown, ...args: unknown[]) {
      const result = write.apply(this, args);
      // `batch()` without operations is a chained batch, written by its own `write()`.
      return result instanceof Promise ? result.catch(asEngineError) : result;
    };
  }
}

function asEngineError(error: unknown): never {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !STORAGE_FAILURES.has(code)) throw error;
  const message = `the embedded engine cannot write to its disk: ${String((error as Error).message).slice(0, 300)}`;
  // dynalite answers an error carrying `statusCode` and `body` as that API error.
  throw Object.assign(new Error(message), {
    statusCode: 503,
    body: { __type: `com.amazonaws.dynamodb.v20120810#${STORAGE_UNAVAILABLE}`, message },
  });
}
