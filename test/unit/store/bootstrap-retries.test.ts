import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ShardlineError } from '../../../src/core/errors';
import { addIndex, ensureTable, type TableSpec } from '../../../src/store/bootstrap';

const SPEC: TableSpec = {
  table: 't',
  primaryKey: [
    { name: 'pk', type: 'S' },
    { name: 'sk', type: 'S' },
  ],
  indexes: [
    { name: 'gsi1', shardKeyAttribute: 'gsi1pk', indexKeyAttribute: 'gsi1sk' },
    { name: 'gsi2', shardKeyAttribute: 'gsi2pk', indexKeyAttribute: 'gsi2sk' },
  ],
};

const throttled = () => Object.assign(new Error('slow down'), { name: 'ThrottlingException' });
const serverError = () =>
  Object.assign(new Error('internal'), { name: 'InternalServerError', $metadata: { httpStatusCode: 500 } });
const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const refused = (name: string, message = name) =>
  Object.assign(new Error(message), { name, $metadata: { httpStatusCode: 400 } });

const active = (...indexes: string[]) => ({
  Table: {
    TableStatus: 'ACTIVE',
    GlobalSecondaryIndexes: indexes.map((IndexName) => ({ IndexName, IndexStatus: 'ACTIVE' })),
  },
});

/**
 * A client answering each command by its name from `script`: the next entry of that command's list
 * (its last one again once the list runs out); an Error entry is thrown. Records the names sent.
 */
function scriptedClient(script: Record<string, unknown[]>) {
  const sent: string[] = [];
  const client = {
    send: async (command: object) => {
      const name = command.constructor.name.replace(/Command$/, '');
      const answers = script[name] ?? [{}];
      const count = sent.filter((earlier) => earlier === name).length;
      sent.push(name);
      const answer = answers[Math.min(count, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as DynamoDBClient;
  return { client, sent };
}

describe('bootstrap calls go through the store retries', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  async function settled<T>(promise: Promise<T>): Promise<T> {
    const outcome = promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await vi.runAllTimersAsync();
    const result = await outcome;
    if ('error' in result) throw result.error;
    return result.value;
  }

  it('creates a table through a throttle, a 5xx and a dropped connection', async () => {
    const { client, sent } = scriptedClient({
      DescribeTable: [throttled(), refused('ResourceNotFoundException'), reset(), active('gsi1', 'gsi2')],
      CreateTable: [serverError(), {}],
    });
    await settled(ensureTable(client, SPEC, true));
    expect(sent).toEqual([
      'DescribeTable',
      'DescribeTable',
      'CreateTable',
      'CreateTable',
      'DescribeTable',
      'DescribeTable',
      'DescribeTable',
    ]);
  });

  it('gives up like any call out of retries, naming the call', async () => {
    const { client, sent } = scriptedClient({ DescribeTable: [throttled()] });
    const failure = settled(ensureTable(client, SPEC, true)).catch((error: unknown) => error);
    const error = await failure;
    expect(error).toBeInstanceOf(ShardlineError);
    expect(error).toMatchObject({ code: 'unavailable', details: { reason: 'throttled' } });
    expect((error as Error).message).toBe(
      'DynamoDB did not complete a description of table t after retries (ThrottlingException)',
    );
    expect(sent).toHaveLength(8);
  });

  it('does not retry a refusal: it comes back at once, internal, standing for the SDK error', async () => {
    const { client, sent } = scriptedClient({ DescribeTable: [refused('AccessDeniedException')] });
    await expect(settled(ensureTable(client, SPEC, true))).rejects.toMatchObject({
      code: 'internal',
      cause: { name: 'AccessDeniedException' },
    });
    expect(sent).toEqual(['DescribeTable']);
  });

  it('adds an index whose first, unanswered attempt landed: the retry is refused and the index is there', async () => {
    const { client, sent } = scriptedClient({
      UpdateTable: [reset(), refused('ValidationException', 'Attempting to create an index which already exists')],
      DescribeTable: [active('gsi1', 'gsi2')],
    });
    await settled(addIndex(client, SPEC, SPEC.indexes[1]));
    // The index looked for after the refusal, then as usual: found, and waited for until ACTIVE.
    expect(sent).toEqual(['UpdateTable', 'UpdateTable', 'DescribeTable', 'DescribeTable', 'DescribeTable']);
  });

  it('still reports an index refused for another reason', async () => {
    const { client } = scriptedClient({
      UpdateTable: [refused('ValidationException', 'too many indexes')],
      DescribeTable: [active('gsi1')],
    });
    await expect(settled(addIndex(client, SPEC, SPEC.indexes[1]))).rejects.toThrow('too many indexes');
  });
});
