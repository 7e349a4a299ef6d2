import { describe, expect, it } from 'vitest';
import { ShardlineError } from '../../../src/core/errors';
import { CHUNK_ATTRIBUTE, chunkSortKey, encodePart, type PartRef } from '../../../src/core/parts';
import { errorStatus } from '../../../src/http/errors';
import { assembleParts, type EntityKey } from '../../../src/service/parts/part-chunks';

const key: EntityKey = { partition: ['pk', 'a'], sort: ['sk', 'root'] };
const ref: PartRef = { version: 'v1', chunks: 1, digest: 'd', bytes: 0 };
const chunk = (bytes: Uint8Array) => ({ pk: 'a', sk: chunkSortKey('root', 'body', 'v1', 0), [CHUNK_ATTRIBUTE]: bytes });

describe('a stored part shardline cannot read', () => {
  it('reads a part it wrote', () => {
    const found = [chunk(encodePart({ text: 'hello' }))];
    expect(assembleParts(key, new Map([['body', ref]]), found)).toEqual({ text: 'hello' });
  });

  it("is a 503 naming the part, never a bare error (a 500) nor the client's 400", () => {
    for (const bytes of ['{"text": tru', '{"text": {"$set": []}}']) {
      const found = [chunk(new TextEncoder().encode(bytes))];
      let caught: unknown;
      try {
        assembleParts(key, new Map([['body', ref]]), found);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ShardlineError);
      expect((caught as ShardlineError).code).toBe('unavailable');
      expect(errorStatus((caught as ShardlineError).code)).toBe(503);
      expect((caught as Error).message).toMatch(/^the stored part "body" \(version v1\) cannot be read: /);
    }
  });
});
