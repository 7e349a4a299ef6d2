import { hasCode, invalidRequest, refused } from '../core/errors';
import { Follower, type FollowStats } from '../follow/follower';
import { openEnvironment, type OpenEnvironment } from '../runtime/open-environment';
import { readSettings, wantsEmbeddedEngine } from '../runtime/settings';
import { ChangeIndexer, poisonLine } from '../service/change-indexer';
import { isCheckpointItem } from '../store/checkpoints';
import { isReservedItem } from '../store/reserved-keys';
import { namedCollection, numberArg, readCommandLine, readOptions, type ScriptIO } from './command-line';
import { formatCount } from '../core/count-text';

export const USAGE = `Usage: npm run follow -- [--collection NAME] [--until-idle] [--batch N]

Follows the table's DynamoDB stream and indexes what other applications write
straight to the table: members (the config's "members" rule, or items shardline
wrote) whose index attributes are missing or stale get them; nothing else is
touched. Same environment as the server (SHARDLINE_CONFIG, TABLE_NAME,
DYNAMODB_ENDPOINT, AWS_REGION). Checkpoints are kept in the table: run it again
and it resumes. Members that cannot be indexed are reported on stderr and skipped.

  --collection NAME   only this collection (default: every collection of the config)
  --until-idle        exit once caught up (default: follow forever)
  --batch N           records per stream read, 1–1000 (default 1000)
  --help`;

const SPEC = {
  options: {
    collection: { type: 'string' },
    'until-idle': { type: 'boolean', default: false },
    batch: { type: 'string', default: '1000' },
  },
} as const;

export interface FollowIO extends ScriptIO {
  /** Redraw the progress line in place (stderr is a terminal). */
  readonly tty: boolean;
  /** Aborted when the follower should stop after the batch in hand, or at once while it waits (SIGINT, SIGTERM). */
  readonly signal: AbortSignal;
}

/** Exit codes: 0 done (caught up, or stopped), 1 failed, 2 bad command line, 3 refused. */
export async function followCli(argv: string[], io: FollowIO): Promise<number> {
  const options = readOptions('follow', USAGE, io, () =>
    readCommandLine(SPEC, argv, ({ values }) => {
      const batch = numberArg('batch', values.batch, { min: 1, integer: true });
      if (batch > 1000) throw invalidRequest('--batch must be at most 1000');
      return {
        ...(values.collection !== undefined && { collection: values.collection }),
        untilIdle: values['until-idle'] === true,
        batch,
      };
    }),
  );
  if (typeof options === 'number') return options;
  let opened: OpenEnvironment | undefined;
  try {
    if (wantsEmbeddedEngine(readSettings(io.env))) {
      throw refused(
        'the embedded engine (dynalite) has no DynamoDB Streams: follow a table on AWS (AWS_REGION) or on ' +
          'DynamoDB Local (DYNAMODB_ENDPOINT), whose tables shardline creates with a stream',
      );
    }
    opened = await openEnvironment(io.env);
    return await follow(options, opened, io);
  } catch (error) {
    io.stderr(`follow: ${(error as Error).message}\n`);
    // A setup the follower refuses (no stream, unknown collection): nothing changed.
    return hasCode(error, 'refused') ? 3 : 1;
  } finally {
    await opened?.close();
  }
}

async function follow(
  options: { collection?: string; untilIdle: boolean; batch: number },
  opened: OpenEnvironment,
  io: FollowIO,
): Promise<number> {
  const collections =
    options.collection === undefined ? opened.collections : [namedCollection(opened.collections, options.collection)];
  const tables = [...new Set(collections.map((c) => c.table))];
  const streams = await Promise.all(tables.map((table) => streamOf(opened, table)));
  const indexer = new ChangeIndexer({
    collections,
    maps: opened.maps,
    writer: opened.dynamo.items,
    isReserved: isReservedItem,
    onPoison: (report) => io.stderr(`${poisonLine(report)}\n`),
    changeDeadlineMs: opened.settings.requestTimeoutMs,
  });
  const started = Date.now();
  const progress = progressLine(io, started);
  const followers = tables.map((table, i) => {
    const first = collections.find((c) => c.table === table)!;
    const stream = streams[i]!;
    return new Follower({
      table,
      reader: opened.dynamo.streamReader(stream.arn),
      checkpoints: opened.dynamo.checkpoints(first, options.collection ?? '*', stream.label),
      indexer,
      isCheckpoint: (key) => isCheckpointItem(first, key),
      batchSize: options.batch,
      untilIdle: options.untilIdle,
      pollMs: 1000,
      signal: io.signal,
      onProgress: () => progress.update(total(followers.map((f) => f.stats))),
      log: (line) => {
        progress.clear();
        io.stderr(`follow: ${line}\n`);
      },
    });
  });
  io.stderr(`follow: ${collections.map((c) => c.name).join(', ')} in ${opened.where}\n`);
  await Promise.all(followers.map((follower) => follower.run()));
  progress.clear();
  const stats = summary(total(followers.map((f) => f.stats)), (Date.now() - started) / 1000);
  io.stdout(`${io.signal.aborted ? 'stopped' : 'caught up'}: ${stats}\n`);
  return 0;
}

/** The table's stream, or a refusal that says how to enable one. */
async function streamOf(opened: OpenEnvironment, table: string) {
  const stream = await opened.dynamo.stream(table);
  const enable =
    `aws dynamodb update-table --table-name ${table} ` +
    '--stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES' +
    (opened.settings.endpoint ? ` --endpoint-url ${opened.settings.endpoint}` : '') +
    (opened.settings.region ? ` --region ${opened.settings.region}` : '');
  if (!stream) throw refused(`table ${table} has no stream; enable one with:\n  ${enable}`);
  if (!stream.viewType.startsWith('NEW')) {
    throw refused(
      `table ${table}'s stream has view type ${stream.viewType}, without the items' new images; ` +
        `disable it (StreamEnabled=false) and enable it again with:\n  ${enable}`,
    );
  }
  return stream;
}

function total(all: readonly FollowStats[]): FollowStats {
  const sum = (count: (stats: FollowStats) => number) => all.reduce((sum, stats) => sum + count(stats), 0);
  const outcome = (name: keyof FollowStats['outcomes']) => sum((stats) => stats.outcomes[name]);
  return {
    seen: sum((stats) => stats.seen),
    outcomes: {
      indexed: outcome('indexed'),
      current: outcome('current'),
      skipped: outcome('skipped'),
      poison: outcome('poison'),
    },
    lagMs: Math.max(0, ...all.map((stats) => stats.lagMs)),
    shardsDone: sum((stats) => stats.shardsDone),
  };
}

function summary(stats: FollowStats, seconds: number): string {
  const { indexed, current, skipped, poison } = stats.outcomes;
  const rate = seconds > 0 ? stats.seen / seconds : 0;
  return (
    `${formatCount(stats.seen)} changes seen, ${formatCount(indexed)} indexed, ` +
    `${formatCount(current)} already current, ${formatCount(skipped)} skipped, ${formatCount(poison)} poison; ` +
    `lag ${(stats.lagMs / 1000).toFixed(1)} s; ` +
    `${rate.toFixed(0)} changes/s over ${seconds.toFixed(1)} s`
  );
}

/** The progress line: redrawn in place on a terminal, else a line every 5 s. */
function progressLine(io: FollowIO, started: number) {
  let shownAt = 0;
  let drawn = false;
  return {
    update(stats: FollowStats) {
      const now = Date.now();
      if (!io.tty && now - shownAt < 5000) return;
      shownAt = now;
      const line = `follow: ${summary(stats, (now - started) / 1000)}`;
      io.stderr(io.tty ? `\r\x1b[2K${line}` : `${line}\n`);
      drawn = io.tty;
    },
    clear() {
      if (drawn) io.stderr('\r\x1b[2K');
      drawn = false;
    },
  };
}
