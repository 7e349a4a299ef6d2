import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Asks a child process to end (SIGTERM unless `ask` says otherwise) and resolves
 * once it has exited; at once if it already had.
 */
export function stopChild(child: ChildProcess, ask: () => void = () => child.kill('SIGTERM')): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
    child.once('exit', () => resolveStop());
    ask();
  });
}

/** What a script printed, and how it ended. */
export interface ScriptOutput {
  /** The exit code; null when killed. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Both streams, as they came. */
  readonly output: string;
}

export interface ScriptRun {
  readonly child: ChildProcess;
  /** Resolves once the script has exited. */
  readonly done: Promise<ScriptOutput>;
  /** Both streams so far, as they came. */
  output(): string;
}

/** A project script (`scripts/follow.ts`) run as `npm run` runs it, in its own process, from the project root. */
export function runScript(script: string, env: NodeJS.ProcessEnv, args: readonly string[]): ScriptRun {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
    output += chunk;
  });
  const done = new Promise<ScriptOutput>((resolveDone) =>
    child.once('exit', (code) => resolveDone({ code, stdout, stderr, output })),
  );
  return { child, done, output: () => output };
}
