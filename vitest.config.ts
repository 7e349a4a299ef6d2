import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that need nothing but Node: no engine, no Java, no browser, no workerd. Every
 * other test file lands in the integration project, so a new file always runs somewhere;
 * one that calls `inject('engines')` or starts a runtime must stay out of this list.
 */
const UNIT = [
  'src/**/*.test.ts',
  'test/unit/**/*.test.ts',
  'test/property/**/*.test.ts',
  'test/plan/**/*.test.ts',
  // Not collection-scan.test.ts: it scans a table on the engines.
  'test/boundaries/{balance,cli,min-max,order,reshard-cost,exact-keys,sketch,dynamodb-export}.test.ts',
  'test/docs/openapi.test.ts',
  'test/docs/docs-access.test.ts',
];

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
