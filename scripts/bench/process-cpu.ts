import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks a second, as /proc counts CPU time (100 on Linux almost everywhere). */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/**
 * A process's user + system CPU so far, milliseconds, read from /proc/<pid>/stat by whoever
 * watches it: the process measured runs nothing extra to report it (Linux only).
 */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const userTicks = Number(fields[11]);
  const systemTicks = Number(fields[12]);
  return ((userTicks + systemTicks) * 1000) / TICKS_PER_SECOND;
}

/** The CPU `pid` spends a second doing nothing asked of it (timers, GC), over `ms` of quiet. */
export async function idleCpuRate(pid: number, ms: number): Promise<number> {
  const before = processCpuMs(pid);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (processCpuMs(pid) - before) / (performance.now() - started);
}
