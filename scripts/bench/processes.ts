import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { stopChild } from '../../devtools/child-process';

export interface DelayProxy {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts the delaying proxy in a child Node process in front of `target`: `delayMs` per call, or with
 * `sigma` a lognormal delay per call whose median is `delayMs`.
 */
export async function startDelayProxy(target: string, delayMs: number, sigma?: number): Promise<DelayProxy> {
  const args = [target, String(delayMs), ...(sigma === undefined ? [] : [String(sigma)])];
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'proxy-child.ts'), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const endpoint = await new Promise<string>((resolveEndpoint, reject) => {
    child.once('exit', (code) => reject(new Error(`delay proxy exited (${code})`)));
    lines.once('line', (line) => resolveEndpoint((JSON.parse(line) as { endpoint: string }).endpoint));
  });
  return {
    endpoint,
    // The proxy ends when its stdin closes, however the bench ends.
    stop: () => stopChild(child, () => child.stdin!.end()),
  };
}
