import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../devtools/dynamodb-local';
import { followCli } from '../src/cli/follow-cli';
import { numberArg, parseCommandLine } from '../src/cli/command-line';
import { buildService, prepareTables } from '../src/runtime/service';
import { readSettings } from '../src/runtime/settings';
import { writeGuard } from '../src/service/guards';

const USAGE = `Usage: npm run bench:follow -- [--items N] [--renames N] [--batch N]

How fast \`npm run follow\` catches up, on DynamoDB Local (the embedded engine has no
Streams): another application puts N members (default 5000) straight into the table,
then renames M of them (default 1000); the follower then runs with --until-idle. Prints
the follower's changes per second next to the rate the writer made them at (the
baseline, measured in the same run: one write per change, as the follower makes).`;

const CONFIG = {
  collections: {
    tracks: {
      field: 'name',
      strategy: { kind: 'hash', shards: 8 },
      members: { attribute: 'sk', beginsWith: 'track#' },
    },
  },
};

async function main(): Promise<void> {
  const options = parseCommandLine(
    'bench:follow',
    USAGE,
    { options: { items: { type: 'string' }, renames: { type: 'string' }, batch: { type: 'string' } } },
    ({ values }) => ({
      items: values.items === undefined ? 5000 : numberArg('items', values.items, { min: 1, integer: true }),
      renames: values.renames === undefined ? 1000 : numberArg('renames', values.renames, { integer: true }),
      batch: values.batch ?? '1000',
    }),
  );
  const engine = await startDynamoDbLocal();
  const configPath = join(mkdtempSync(join(tmpdir(), 'shardline-bench-follow-')), 'config.json');
  writeFileSync(configPath, JSON.stringify(CONFIG));
  const env = {
    DYNAMODB_ENDPOINT: engine.endpoint,
    TABLE_NAME: `bench-follow-${Date.now()}`,
    SHARDLINE_CONFIG: configPath,
    AWS_ACCESS_KEY_ID: 'shardline',
    AWS_SECRET_ACCESS_KEY: 'shardline',
  };
  const credentials = { accessKeyId: 'shardline', secretAccessKey: 'shardline' };
  const service = buildService(readSettings({ ...env, CURSOR_SECRET: 'bench' }), CONFIG, { client: { credentials } });
  try {
    await prepareTables(service, true);
    const table = env.TABLE_NAME;
    // The other application: plain puts and updates, no index attributes.
    const writeStarted = performance.now();
    const items = Array.from({ length: options.items }, (_, i) => ({ pk: `t${i}`, sk: `track#${i}`, name: `T ${i}` }));
    // Through the store's own put (as the batch route sends each item, under its bound on calls in
    // flight), not the route: the route would index the items, leaving the follower nothing to do.
    const absent = writeGuard(service.collections[0]!, 'mustNot');
    const outcomes = await Promise.all(items.map((item) => service.dynamo.items.putItem(table, item, {}, absent)));
    const failed = outcomes.filter((outcome) => !outcome.applied).length;
    if (failed > 0) throw new Error(`${failed} puts failed`);
    for (let i = 0; i < options.renames; i++) {
      const key = { pk: `t${i % options.items}`, sk: `track#${i % options.items}` };
      await service.dynamo.items.updateAttributes(
        { table, key, set: { name: `Renamed ${i}` }, when: [{ kind: 'absent', attribute: 'gsi1pk' }] },
        {},
      );
    }
    const writeSeconds = (performance.now() - writeStarted) / 1000;
    const changes = options.items + options.renames;

    let output = '';
    const followStarted = performance.now();
    const code = await followCli(['--until-idle', '--batch', options.batch], {
      stdout: (text) => (output += text),
      stderr: () => {},
      env,
      tty: false,
      signal: new AbortController().signal,
    });
    const followSeconds = (performance.now() - followStarted) / 1000;
    if (code !== 0) throw new Error(`follow exited ${code}: ${output}`);
    const followRate = changes / followSeconds;
    const writeRate = changes / writeSeconds;
    console.log(`changes made by the other writer: ${changes} (${options.items} puts, ${options.renames} renames)`);
    console.log(`writer:   ${writeRate.toFixed(0)} changes/s (baseline: one write per change)`);
    console.log(
      `follower: ${followRate.toFixed(0)} changes/s to catch up, including start-up (${followSeconds.toFixed(1)} s)`,
    );
    console.log(`ratio follower/writer: ${(followRate / writeRate).toFixed(2)}`);
    console.log(`follower summary: ${output.trim()}`);
  } finally {
    service.dynamo.destroy();
    await engine.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:follow failed: ${(error as Error).message}`);
  process.exit(1);
});
