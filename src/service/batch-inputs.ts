import { ShardlineError, type ErrorCode } from '../core/errors';
import type { JsonObject } from '../core/item';
import { canonicalText } from '../core/values';

/**
 * Reads every input of a batch request before anything is sent. An input that is
 * invalid, or names the same item as an earlier one (compared by the canonical text of
 * its primary key, so `1` and `1.0` are one DynamoDB key), refuses the whole request:
 * one 400 with `code`, listing every bad index.
 */
export function readBatch<T>(
  inputs: readonly unknown[],
  read: (input: unknown) => { value: T; key: JsonObject },
  refusal: { code: ErrorCode; summary: (bad: number) => string; repeated: (first: number) => string },
): T[] {
  const values: T[] = [];
  const invalid: { index: number; error: { code: string; message: string } }[] = [];
  const firstIndexOfKey = new Map<string, number>();
  inputs.forEach((input, index) => {
    try {
      const { value, key } = read(input);
      const text = canonicalText(key);
      const first = firstIndexOfKey.get(text);
      if (first !== undefined) throw new ShardlineError(refusal.code, refusal.repeated(first));
      firstIndexOfKey.set(text, index);
      values.push(value);
    } catch (error) {
      if (!(error instanceof ShardlineError)) throw error;
      invalid.push({ index, error: { code: error.code, message: error.message } });
    }
  });
  if (invalid.length > 0) throw new ShardlineError(refusal.code, refusal.summary(invalid.length), { invalid });
  return values;
}
