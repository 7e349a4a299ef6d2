import { describe, expect, it } from 'vitest';
import { ShardlineError } from '../../../src/core/errors';
import { ExactNumber } from '../../../src/core/exact-number';
import { readBatch } from '../../../src/service/batch-inputs';

const refusal = {
  code: 'invalid_item' as const,
  summary: (bad: number) => `${bad} bad`,
  repeated: (first: number) => `repeats ${first}`,
};
const asKey = (input: unknown) => ({ value: input, key: input as Record<string, unknown> });

describe('readBatch', () => {
  it('passes distinct keys through in order', () => {
    expect(readBatch([{ pk: 'a' }, { pk: 'b' }], asKey, refusal)).toEqual([{ pk: 'a' }, { pk: 'b' }]);
  });

  it('refuses a key DynamoDB holds equal to an earlier one, however it is written', () => {
    const inputs = [{ pk: new ExactNumber('1'), sk: 'x' }, { sk: 'x', pk: new ExactNumber('1.0') }, { pk: 2 }];
    try {
      readBatch(inputs, asKey, refusal);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ShardlineError);
      expect((error as ShardlineError).message).toBe('1 bad');
      expect((error as ShardlineError).details).toEqual({
        invalid: [{ index: 1, error: { code: 'invalid_item', message: 'repeats 0' } }],
      });
    }
  });

  it('lists every invalid input by index', () => {
    const read = (input: unknown) => {
      if (input === null) throw new ShardlineError('invalid_item', 'not an item');
      return asKey(input);
    };
    expect(() => readBatch([null, { pk: 'a' }, null], read, refusal)).toThrow('2 bad');
  });
});
