import { createRequire } from 'node:module';
import { STORAGE_UNAVAILABLE } from '../store/dynamo-errors';

type Write = (this: unknown, ...args: unknown[]) => unknown;

/** LevelDB's failures of the disk itself, not of a request: full, read-only, gone, damaged. */
const STORAGE_FAILURES = new Set(['LEVEL_IO_ERROR', 'LEVEL_CORRUPTION']);

const guarded = new WeakSet<object>();

/**
 * dynalite throws an error without an HTTP status out of its request callback, so one failed LevelDB write (a
 * full disk) would kill the process. Here such a write fails as a 503 `StorageUnavailableException` and reads
 * go on; LevelDB takes writes again once space returns. A no-op for dynalite's in-memory store.
 */
export function guardEngineStorage(): void {
  const fromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  const { Level } = fromDynalite('level') as { Level: { prototype: Record<string, Write> } };
  const prototype = Level.prototype;
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
