import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDataDir } from '../../../src/runtime/data-dir-lock';

const onLinux = process.platform === 'linux';

/** Field 22 of /proc/<pid>/stat: when the kernel started the process. */
function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] as string;
}

function state(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] as string;
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe.runIf(onLinux)('the data directory lock after kill -9', () => {
  const dirs: string[] = [];
  const dataDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'shardline-lock-'));
    dirs.push(dir);
    return dir;
  };
  const writeHolder = (dir: string, pid: number, started: string): void =>
    writeFileSync(join(dir, LOCK_FILE), `${JSON.stringify({ pid, command: 'node', since: 'then', started })}\n`);
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('takes over from a holder killed but not yet reaped (a zombie)', async () => {
    // The shell's child is killed; the shell has become `sleep`, which never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d) => resolve(String(d)))));
      // Killed before the shell has become `sleep`, the child may be reaped by the shell (seen once:
      // /proc/<pid>/stat gone): wait until the parent is `sleep`, which never reaps.
      await until(() => readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim() === 'sleep');
      const dir = dataDir();
      writeHolder(dir, pid, startTime(pid));
      process.kill(pid, 'SIGKILL');
      await until(() => state(pid) === 'Z');
      lockDataDir(dir).release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('takes over when the pid now names a process started at another time (pid reused)', () => {
    const dir = dataDir();
    writeHolder(dir, process.ppid, '1');
    lockDataDir(dir).release();
  });

  it('still refuses a live holder started when its lock says', () => {
    const dir = dataDir();
    writeHolder(dir, process.ppid, startTime(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(`is in use by process ${process.ppid}`);
  });
});
