import { configDefaults, defineConfig } from 'vitest/config';

// The kind of a test is its folder, never a list of names: unit tests live under test/unit/ (one
// subfolder a topic) and beside the code as src/**/*.test.ts, and need nothing but Node: no engine,
// no Java, no browser, no workerd. Every other test/**/*.test.ts is integration, so a new file always
// runs somewhere; one that calls `inject('engines')` or starts a runtime belongs outside test/unit/.
const UNIT = ['src/**/*.test.ts', 'test/unit/**/*.test.ts'];

export default defineConfig({
  test: {
    // A safety net, not a measure: engines, bundles and browsers start slowly, and the
    // unit workloads (200,000 key pairs, 2,000-shard cuts) run long on a shared two-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: engines plus two test workers is what the machine can carry.
    maxWorkers: 2,
    // The SDK's notice that its 2027 releases need Node 22 is for operators, not test logs.
    // The request log and Lambda's metric lines (stdout) are for operators, not test logs; the
    // tests that check them turn them on (services built in-process keep their statistics).
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      LOG_LEVEL: 'off',
      SHARDLINE_METRICS: 'false',
      // DynamoDB Local's writes slow down as its streams fill up (docs/other-writers.md): tables the
      // tests create have none, but for the tests of the change followers (test/follow/), which ask for one.
      SHARDLINE_TABLE_STREAM: 'false',
      // Load records (docs/autopilot.md) and the TTL they need on every table the tests create:
      // DynamoDB Local sweeps every TTL-enabled table. The tests of the fleet load ask for them.
      SHARDLINE_LOAD_RECORDS: 'false',
    },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...UNIT],
          // DynamoDB Local and dynalite, once for the whole project.
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
