import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../src/core/cursor';
import { ShardlineError } from '../../../src/core/errors';
import { text } from '../../support/arbitraries';

const scope = fc.record({
  collection: fc.constantFrom('albums', 'albums-hash', 'albums-random', 'a:b', ''),
  direction: fc.constantFrom('asc', 'desc'),
  filter: fc.oneof(
    fc.constant('["all"]'),
    text(6).map((p) => JSON.stringify(['prefix', p])),
  ),
});
const position = text(30).map((value) => `${value}\u0000["pk","sk"]`);
const secret = fc.string({ minLength: 1, maxLength: 40 });

function rejects(run: () => unknown): boolean {
  try {
    run();
    return false;
  } catch (error) {
    expect(error).toBeInstanceOf(ShardlineError);
    expect((error as ShardlineError).code).toBe('invalid_cursor');
    return true;
  }
}

describe('cursor (property)', () => {
  it('round-trips any position for its own scope and secret', () => {
    fc.assert(
      fc.property(position, scope, secret, (at, s, key) => {
        expect(decodeCursor(encodeCursor(at, s, key), s, key)).toEqual({ position: at });
      }),
      { numRuns: 1000 },
    );
  });

  it('rejects a cursor of another collection, direction, filter or secret', () => {
    fc.assert(
      fc.property(position, scope, scope, secret, secret, (at, s1, s2, k1, k2) => {
        const cursor = encodeCursor(at, s1, k1);
        const sameScope = s1.collection === s2.collection && s1.direction === s2.direction && s1.filter === s2.filter;
        if (!sameScope) expect(rejects(() => decodeCursor(cursor, s2, k1))).toBe(true);
        if (k1 !== k2) expect(rejects(() => decodeCursor(cursor, s1, k2))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('never resumes at another position after tampering: any edit is rejected or decodes to the same position', () => {
    const edit = fc.record({
      at: fc.nat(),
      char: fc.constantFrom(...'ABCabc019-_.=+/ %\u0000é'),
      kind: fc.constantFrom('replace', 'insert', 'delete', 'truncate'),
    });
    fc.assert(
      fc.property(position, scope, secret, edit, (at, s, key, e) => {
        const cursor = encodeCursor(at, s, key);
        const i = e.at % cursor.length;
        const tampered =
          e.kind === 'replace'
            ? cursor.slice(0, i) + e.char + cursor.slice(i + 1)
            : e.kind === 'insert'
              ? cursor.slice(0, i) + e.char + cursor.slice(i)
              : e.kind === 'delete'
                ? cursor.slice(0, i) + cursor.slice(i + 1)
                : cursor.slice(0, i);
        if (tampered === cursor) return;
        let decoded: string | undefined;
        const rejected = rejects(() => (decoded = decodeCursor(tampered, s, key).position));
        if (!rejected) expect(decoded).toBe(at);
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects garbage with invalid_cursor, never another error', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), scope, (garbage, s) => {
        expect(rejects(() => decodeCursor(garbage, s, 'k'))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
