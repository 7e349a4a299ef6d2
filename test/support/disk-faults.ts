import { createRequire } from 'node:module';

type Method = (...args: unknown[]) => Promise<unknown>;

/**
 * A full disk under the embedded engine, without filling one: while on, every LevelDB
 * write (the class dynalite resolves, below the engine's own guard) fails as classic-level
 * fails on ENOSPC. Reads are untouched. `restore()` is space coming back.
 */
export function fillDisk(): { restore(): void } {
  const fromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  const { Level } = fromDynalite('level') as { Level: { prototype: Record<string, Method> } };
  const originals = new Map<string, Method>();
  for (const name of ['_put', '_del', '_batch']) {
    originals.set(name, Level.prototype[name]!);
    Level.prototype[name] = async () => {
      throw Object.assign(new Error('IO error: /data/000003.log: No space left on device'), {
        code: 'LEVEL_IO_ERROR',
      });
    };
  }
  return {
    restore() {
      for (const [name, method] of originals) Level.prototype[name] = method;
    },
  };
}
