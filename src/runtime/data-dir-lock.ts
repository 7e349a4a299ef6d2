import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** File in the embedded engine's data directory naming the process that has it open. */
export const LOCK_FILE = 'shardline.lock';

interface Holder {
  readonly pid: number;
  readonly command: string;
  readonly since: string;
  /** The kernel's start time of the process (Linux: /proc/<pid>/stat field 22), when known. */
  readonly started?: string;
}

export interface DataDirLock {
  release(): void;
}

/**
 * Takes the data directory for this process, or throws naming the process that has it: LevelDB allows one, and
 * a second fails deep inside with "Database is closed". A lock whose process is gone, a zombie, or another
 * process under the same pid (another start time) is taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  const started = processStart(process.pid)?.started;
  const mine: Holder = {
    pid: process.pid,
    command: commandLine(),
    since: new Date().toISOString(),
    ...(started && { started }),
  };
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
      if (holder && holder.pid !== process.pid && isRunning(holder)) {
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
    return {
      pid: holder.pid,
      command: String(holder.command ?? '?'),
      since: String(holder.since ?? '?'),
      ...(typeof holder.started === 'string' && { started: holder.started }),
    };
  } catch {
    return undefined; // half written or removed meanwhile: treated as no holder
  }
}

/** Whether the lock's holder still runs: its pid is alive, not a zombie, and started when the lock says. */
function isRunning(holder: Holder): boolean {
  const now = processStart(holder.pid);
  if (now) return !now.zombie && (holder.started === undefined || holder.started === now.started);
  if (now === null) return false; // /proc answers, and has no such process
  try {
    process.kill(holder.pid, 0); // no /proc (macOS): the pid is all there is to go by
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/** A process's start time and whether it is a zombie; null: /proc has no such process; undefined: no /proc. */
function processStart(pid: number): { started: string; zombie: boolean } | null | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    return existsSync('/proc/self/stat') ? null : undefined;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so fields count from the last ")".
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const started = fields[19]; // field 22 of the whole line
  return started ? { started, zombie: fields[0] === 'Z' || fields[0] === 'X' } : undefined;
}

/** What the process was started as, short enough for one message line. */
function commandLine(): string {
  const line = [process.argv0, ...process.argv.slice(1)].join(' ');
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
