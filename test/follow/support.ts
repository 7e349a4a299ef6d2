import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { expect } from 'vitest';
import { runScript, type ScriptRun } from '../../devtools/child-process';
import type { Fetcher } from '../support/http';
import { get } from '../support/http';

/** `albums` (range) written through shardline; `tracks`, whose members other applications write. */
export const FOLLOW_CONFIG = {
  collections: {
    albums: { field: 'title', strategy: { kind: 'range', boundaries: ['', 'h', 'p'] } },
    tracks: {
      field: 'name',
      strategy: { kind: 'hash', shards: 4 },
      members: { attribute: 'sk', beginsWith: 'track#' },
    },
    // A typed order: the stream's DynamoDB numbers must reach it as numbers.
    releases: {
      order: [{ field: 'year', type: 'number', direction: 'desc' }, { field: 'title' }],
      strategy: { kind: 'hash', shards: 3 },
      members: { attribute: 'sk', beginsWith: 'release#' },
    },
  },
};

/** Tables shardline creates have a stream, but in the test run (vitest.config.ts): these tests ask for one. */
export const WITH_STREAM = { SHARDLINE_TABLE_STREAM: 'true' };

const KEYS = { accessKeyId: 'shardline', secretAccessKey: 'shardline' };

/** `npm run follow -- ...` as an operator runs it, in its own process. */
export function runFollow(env: NodeJS.ProcessEnv, args: string[]): ScriptRun {
  return runScript('scripts/follow.ts', env, args);
}

/** The counts of a follower's summary line ("caught up: 12 changes seen, 5 indexed, …"). */
export function summaryOf(stdout: string): { seen: number; indexed: number; poison: number } {
  const match = /caught up: ([\d,]+) changes seen, ([\d,]+) indexed, .* ([\d,]+) poison/.exec(stdout);
  if (!match) throw new Error(`no summary in: ${stdout}`);
  const n = (text: string) => Number(text.replaceAll(',', ''));
  return { seen: n(match[1]!), indexed: n(match[2]!), poison: n(match[3]!) };
}

/** Every record the table's stream holds now, as GetRecords returns them (read straight from the engine). */
export async function streamRecords(endpoint: string, table: string): Promise<{ arn: string; records: _Record[] }> {
  const dynamo = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: KEYS });
  const streams = new DynamoDBStreamsClient({ endpoint, region: 'us-east-1', credentials: KEYS });
  try {
    const arn = (await dynamo.send(new DescribeTableCommand({ TableName: table }))).Table!.LatestStreamArn!;
    const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription!.Shards!;
    const records: _Record[] = [];
    for (const shard of shards) {
      let iterator = (
        await streams.send(
          new GetShardIteratorCommand({ StreamArn: arn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }),
        )
      ).ShardIterator;
      while (iterator) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
        records.push(...(page.Records ?? []));
        if ((page.Records ?? []).length === 0) break;
        iterator = page.NextShardIterator;
      }
    }
    return { arn, records };
  } finally {
    dynamo.destroy();
    streams.destroy();
  }
}

/**
 * The event Lambda hands the function for these records: the GetRecords wire JSON (the
 * SDK turned binary from base64 into bytes and epoch seconds into Dates: undone here)
 * plus the stream's ARN, as the Lambda event source mapping adds it.
 */
export function lambdaStreamEvent(arn: string, records: readonly _Record[]): { Records: unknown[] } {
  const wire = JSON.parse(
    JSON.stringify(records, function (this: Record<string, unknown>, name, value) {
      const original = this[name];
      if (original instanceof Uint8Array) return Buffer.from(original).toString('base64');
      if (original instanceof Date) return original.getTime() / 1000;
      return value;
    }),
  ) as Record<string, unknown>[];
  return { Records: wire.map((record) => ({ ...record, eventSourceARN: arn })) };
}

/** Every item of a collection's listing, in order, through shardline's API. */
export async function listing(app: Fetcher, collection: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const page = await get(app, `/collections/${collection}/items?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return items;
}

/** The primary keys (pk) a `key` lookup finds. */
export async function lookup(app: Fetcher, collection: string, key: string): Promise<string[]> {
  const page = await get(app, `/collections/${collection}/items?key=${encodeURIComponent(key)}&limit=1000`);
  expect(page.status).toBe(200);
  return page.body.items.map((item: { pk: string }) => item.pk);
}
