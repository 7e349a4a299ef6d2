import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stopChild } from '../../devtools/child-process';
import { waitUntilReady } from '../../devtools/wait-until';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every process under `root` (children, theirs…), from one `ps` listing. */
function descendants(root: number): number[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((row) => row.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [pid, ppid] of rows) {
      if (ppid !== parent) continue;
      found.push(pid);
      walk(pid);
    }
  };
  walk(root);
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shardline-npm-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('ends the server when the npm process gets SIGTERM: the port stops answering, no process is left', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
      PORT: '0',
      SHARDLINE_DATA_DIR: dataDir,
    };
    for (const name of ['DYNAMODB_ENDPOINT', 'AWS_REGION', 'AWS_DEFAULT_REGION', 'TABLE_NAME', 'SHARDLINE_CONFIG'])
      delete env[name];
    const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let processes: number[] = [];
    npm.stdout.on('data', (chunk) => (output += chunk));
    npm.stderr.on('data', (chunk) => (output += chunk));
    try {
      await waitUntilReady(() => /listening on http:\/\/\S+:\d+/.test(output), {
        gaveUp: () => (npm.exitCode === null ? undefined : `npm start exited: ${output}`),
        timedOut: () => `npm start did not listen: ${output}`,
      });
      const base = /listening on (http:\/\/\S+:\d+)/.exec(output)![1]!;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      processes = descendants(npm.pid!);
      expect(processes.length).toBeGreaterThan(0);

      await stopChild(npm);
      await waitUntilReady(() => !processes.some(alive), {
        timeoutMs: 10_000,
        timedOut: () => `still running after npm ended: ${processes.filter(alive).join(', ')}\n${output}`,
      });
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    } finally {
      await stopChild(npm);
      for (const pid of processes.filter(alive)) process.kill(pid, 'SIGKILL');
    }
  });
});
