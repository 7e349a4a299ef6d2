import { describe, expect, it } from 'vitest';
import { buildShardQuery, type ShardQuery } from '../../../src/store/shard-query';

const base: ShardQuery = {
  table: 'shardline',
  index: 'GSI1',
  shardKeyAttribute: 'gsi1pk',
  indexKeyAttribute: 'gsi1sk',
  shardKey: 'albums#3',
  range: {},
  direction: 'asc',
  limit: 10,
};

describe('buildShardQuery', () => {
  it('queries the whole shard without bounds', () => {
    const input = buildShardQuery(base)!;
    expect(input.KeyConditionExpression).toBe('#shard = :shard');
    expect(input).toMatchObject({
      IndexName: 'GSI1',
      ScanIndexForward: true,
      Limit: 10,
      ReturnConsumedCapacity: 'TOTAL',
    });
  });

  it('turns an exclusive lower bound into the next string up, and uses BETWEEN for two sides', () => {
    const input = buildShardQuery({
      ...base,
      range: { lower: { key: 'a', inclusive: false }, upper: { key: 'b', inclusive: false } },
    })!;
    expect(input.KeyConditionExpression).toBe('#shard = :shard AND #key BETWEEN :lower AND :upper');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':lower': { S: 'a\u0000' }, ':upper': { S: 'b' } });
  });

  it("compares with > alone past a key that already fills DynamoDB's 1024-byte sort key limit", () => {
    const full = 'x'.repeat(1024);
    const input = buildShardQuery({
      ...base,
      range: { lower: { key: full, inclusive: false }, upper: { key: 'y', inclusive: true } },
    })!;
    expect(input.KeyConditionExpression).toBe('#shard = :shard AND #key > :lower');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':lower': { S: full } });
    const shorter = buildShardQuery({ ...base, range: { lower: { key: full.slice(1), inclusive: false } } })!;
    expect(shorter.ExpressionAttributeValues).toMatchObject({ ':lower': { S: `${full.slice(1)}\u0000` } });
  });

  it('makes room for the dropped upper bound of a descending BETWEEN', () => {
    const range = { lower: { key: 'a', inclusive: true }, upper: { key: 'b\u0000x', inclusive: false } };
    expect(buildShardQuery({ ...base, range, direction: 'desc' })!.Limit).toBe(11);
    expect(buildShardQuery({ ...base, range, direction: 'asc' })!.Limit).toBe(10);
  });

  it('uses one comparison for one side', () => {
    expect(
      buildShardQuery({ ...base, range: { upper: { key: 'b', inclusive: false } } })!.KeyConditionExpression,
    ).toContain('#key < :upper');
    expect(
      buildShardQuery({ ...base, range: { upper: { key: 'b', inclusive: true } } })!.KeyConditionExpression,
    ).toContain('#key <= :upper');
    expect(
      buildShardQuery({ ...base, range: { lower: { key: 'b', inclusive: true } } })!.KeyConditionExpression,
    ).toContain('#key >= :lower');
  });

  it('keeps only the side the read starts from when UTF-16 order would reject BETWEEN', () => {
    const range = { lower: { key: '\uE000', inclusive: true }, upper: { key: '\u{1F600}', inclusive: true } };
    expect(buildShardQuery({ ...base, range })!.KeyConditionExpression).toBe('#shard = :shard AND #key >= :lower');
    expect(buildShardQuery({ ...base, range, direction: 'desc' })!.KeyConditionExpression).toBe(
      '#shard = :shard AND #key <= :upper',
    );
  });

  it('sends nothing for an empty range', () => {
    expect(
      buildShardQuery({
        ...base,
        range: { lower: { key: 'b', inclusive: true }, upper: { key: 'a', inclusive: true } },
      }),
    ).toBeUndefined();
    expect(
      buildShardQuery({
        ...base,
        range: { lower: { key: 'a', inclusive: false }, upper: { key: 'a', inclusive: true } },
      }),
    ).toBeUndefined();
  });
});
