import type { ChildProcess } from 'node:child_process';

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
