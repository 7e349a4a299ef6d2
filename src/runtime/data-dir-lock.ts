import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** File in the embedded engine's data directory naming the process that has it open. */
export const LOCK_FILE = 'shardline.lock';

interface Holder {
  readonly pid: number;
  readonly command: string;
  readonly since: string;
}

export interface DataDirLock {
  release(): void;
}

/**
 * Takes the data directory for this process, or throws an Error naming the process
 * (pid, command, since when) that has it. LevelDB allows one process per directory;
 * without this, a second one fails deep inside the engine with "Database is closed".
 * A lock left by a process that is gone (killed, crashed) is taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  const mine: Holder = { pid: process.pid, command: commandLine(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify(mine)}\n`, { flag: 'wx' });
      return {
        release: () => {
          if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      // Our own pid in the file is a lock left by an earlier process that had it (containers reuse pids).
      if (holder && holder.pid !== process.pid && isRunning(holder.pid)) {
        throw new Error(
          `the data directory ${dataDir} is in use by process ${holder.pid} (${holder.command}), since ` +
            `${holder.since}: stop that process, or set SHARDLINE_DATA_DIR to another directory`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock the data directory ${dataDir}: another process keeps taking it`);
}

function readHolder(file: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    if (typeof holder.pid !== 'number') return undefined;
    return { pid: holder.pid, command: String(holder.command ?? '?'), since: String(holder.since ?? '?') };
  } catch {
    return undefined; // half written or removed meanwhile: treated as no holder
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/** What the process was started as, short enough for one message line. */
function commandLine(): string {
  const line = [process.argv0, ...process.argv.slice(1)].join(' ');
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
