import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildLambdaFolder } from '../../devtools/build-lambda';
import { stopChild } from '../../devtools/child-process';
import type { PhaseLength } from './drive';
import type { Sample } from './request-report';
import { quantile } from '../../devtools/stats';

const ROOT = resolve(import.meta.dirname, '../..');

export interface LambdaProcess {
  /** Runs `route` for the phase's length in the bundle's process; CPU a request and latency. */
  run(route: string, length: PhaseLength, keyPrefix: string): Promise<Sample>;
  stop(): Promise<void>;
}

/**
 * Builds the Lambda folder as `npm run build` does (config/shardline.config.json) into a temporary
 * folder and starts scripts/bench/lambda-child.ts over it, with `env` (its table, endpoint, keys).
 * The bundle's stdout (its request log, its EMF metrics) is read and dropped, as Lambda's runtime reads it.
 */
export async function startLambdaProcess(env: Record<string, string>): Promise<LambdaProcess> {
  const outDir = mkdtempSync(join(tmpdir(), 'shardline-bench-lambda-'));
  await buildLambdaFolder(outDir, resolve(ROOT, 'config/shardline.config.json'));
  const child = fork(resolve(import.meta.dirname, 'lambda-child.ts'), [join(outDir, 'index.mjs')], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  child.stdout?.resume();
  const next = () =>
    new Promise<unknown>((answered, failed) => {
      const onExit = (code: number | null) => failed(new Error(`the Lambda bench process exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        answered(message);
      });
    });
  await next(); // 'ready': the bundle's init ran
  return {
    run: async (route, length, keyPrefix) => {
      const answer = next();
      child.send({ route, keyPrefix, ...length });
      const { latencies, cpuMs } = (await answer) as { latencies: number[]; cpuMs: number };
      return {
        count: latencies.length,
        cpuMs: cpuMs / latencies.length,
        p50: quantile(latencies, 0.5),
        p99: quantile(latencies, 0.99),
      };
    },
    stop: async () => {
      await stopChild(child);
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
