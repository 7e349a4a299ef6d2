import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { autopilotCli } from '../../src/cli/autopilot-cli';
import type { Service } from '../../src/runtime/service';
import type { KeptDecision } from '../../src/store/decision-log';
import { cliEnv } from '../reshard/processes';
import { startTestService } from './service';

/** One `npm run autopilot` run in-process: its exit code and what it printed. */
export interface AutopilotRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** What `--status --json` prints for one collection: the decisions kept in the table, oldest first. */
export interface KeptDecisions {
  readonly collection: string;
  readonly decisions: KeptDecision[];
}

export interface AutopilotHarness {
  /** The router the test writes through: the real service in-process, over its own table. */
  readonly service: Service & { table: string };
  /** The environment `npm run autopilot` reads: the same table and config file. */
  readonly env: Record<string, string>;
  /** `npm run autopilot -- <args>`, in-process, whatever its exit code. */
  run(args: string[], stop?: AbortSignal): Promise<AutopilotRun>;
  /** `npm run autopilot -- <args>`, which must exit 0: its stdout. */
  cli(args: string[]): Promise<string>;
  /** The decisions kept for `collection`, as `--status --json` reads them. */
  kept(collection: string): Promise<KeptDecisions>;
}

/** Six ranges of first letters: the map the autopilot tests start from. */
const SIX_RANGES = { kind: 'range', boundaries: ['', 'e', 'i', 'n', 'r', 'v'] };

/** A config of one collection of titles on SIX_RANGES, its autopilot over `windowMinutes` with no cooldown. */
export function titlesWithAutopilot(name: string, windowMinutes: number) {
  const autopilot = { windowMinutes, cooldownMinutes: 0, rate: 100_000 };
  return { collections: { [name]: { field: 'title', strategy: SIX_RANGES, autopilot } } };
}

/** Load records on, minutes of `minuteMs`; a short map TTL and deadline: a reshard's phases wait about 2 s each. */
export function loadRecordsEnv(minuteMs: number) {
  return {
    SHARDLINE_LOAD_RECORDS: 'true',
    SHARDLINE_LOAD_MINUTE_MS: String(minuteMs),
    SHARDLINE_MAP_TTL_MS: '50',
    REQUEST_TIMEOUT_MS: '1000',
  };
}

/** The last JSON line a step printed: its decision. */
export function lastDecision(stdout: string): any {
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/**
 * A describe block's table on DynamoDB Local with `config` (written to a file, as an operator's),
 * the service in-process over it, and the autopilot run as `npm run autopilot` runs it, in-process
 * over the same table. Started before the block's tests, stopped after them.
 */
export function autopilotHarness(
  name: string,
  config: object,
  env: Record<string, string>,
  options: {
    /** What only the autopilot's environment has (a reshard's deadline), beside `env`. */
    readonly cliEnv?: Record<string, string>;
    /** The service's clock (test/support/clock.ts). */
    readonly now?: () => number;
  } = {},
): AutopilotHarness {
  let dir: string | undefined;
  let service: (Service & { table: string }) | undefined;
  let autopilotEnv: Record<string, string> | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `shardline-${name}-`));
    const configFile = join(dir, 'config.json');
    writeFileSync(configFile, JSON.stringify(config));
    service = await startTestService('dynamodbLocal', { config, env, ...(options.now && { now: options.now }) });
    autopilotEnv = cliEnv(inject('engines').dynamodbLocal, service.table, configFile, { ...env, ...options.cliEnv });
  });
  afterAll(() => {
    service?.dynamo.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = async (args: string[], stop?: AbortSignal): Promise<AutopilotRun> => {
    let stdout = '';
    let stderr = '';
    const code = await autopilotCli(args, {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      env: harness.env,
      ...(stop && { stop }),
    });
    return { code, stdout, stderr };
  };
  const cli = async (args: string[]) => {
    const { code, stdout, stderr } = await run(args);
    expect(code, stderr).toBe(0);
    return stdout;
  };
  const harness: AutopilotHarness = {
    get service() {
      if (!service) throw new Error('the autopilot harness is used before its beforeAll ran');
      return service;
    },
    get env() {
      if (!autopilotEnv) throw new Error('the autopilot harness is used before its beforeAll ran');
      return autopilotEnv;
    },
    run,
    cli,
    kept: async (collection) => JSON.parse(await cli(['--status', '--json', '--collection', collection]))[0],
  };
  return harness;
}
