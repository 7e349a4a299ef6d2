import { openEnvironment, type OpenEnvironment } from '../runtime/open-environment';
import { DEFAULT_SWEEP_GRACE_MS, sweepParts } from '../service/parts/sweep-parts';
import { namedCollection, numberArg, readCommandLine, readOptions, type ScriptIO } from './command-line';

export const USAGE = `Usage: npm run sweep-parts -- [--collection NAME] [--grace-minutes N]

Removes the chunks of entities in parts ("parts" in the config) that no root names:
what a writer killed half way through a write leaves (docs/api.md, "Entities in
parts"). Scans each table with a collection in parts; a chunk younger than the
grace may be a write in flight and is kept. Same environment as the server
(SHARDLINE_CONFIG, TABLE_NAME, DYNAMODB_ENDPOINT, AWS_REGION).

  --collection NAME   only this collection's table (default: every collection in parts)
  --grace-minutes N   keep unnamed chunks younger than this (default ${DEFAULT_SWEEP_GRACE_MS / 60_000})
  --help`;

/** Exit codes: 0 swept, 1 failed, 2 bad command line. */
export async function sweepPartsCli(argv: string[], io: ScriptIO): Promise<number> {
  const spec = { options: { collection: { type: 'string' }, 'grace-minutes': { type: 'string' } } } as const;
  const options = readOptions('sweep-parts', USAGE, io, () =>
    readCommandLine(spec, argv, ({ values: { collection, 'grace-minutes': grace } }) => ({
      ...(collection !== undefined && { collection }),
      graceMs: grace === undefined ? DEFAULT_SWEEP_GRACE_MS : numberArg('grace-minutes', grace, { min: 0 }) * 60_000,
    })),
  );
  if (typeof options === 'number') return options;
  let opened: OpenEnvironment | undefined;
  try {
    opened = await openEnvironment(io.env);
    const inParts = opened.collections.filter((c) => c.parts !== undefined);
    const chosen = options.collection === undefined ? inParts : [namedCollection(inParts, options.collection)];
    // One sweep a table: a chunk's root tells whether it is named, whichever collection it is of.
    const byTable = new Map(chosen.map((collection) => [collection.table, collection]));
    for (const collection of byTable.values()) {
      const report = await sweepParts(opened.dynamo.items, opened.dynamo.items, collection, {}, options.graceMs);
      io.stdout(`${collection.table}: ${report.chunks} chunks, ${report.removed} removed\n`);
    }
    return 0;
  } catch (error) {
    io.stderr(`sweep-parts: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await opened?.close();
  }
}
