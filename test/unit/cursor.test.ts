import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, type CursorScope } from '../../src/core/cursor';

const scope: CursorScope = { collection: 'albums', order: 'asc', filter: '["prefix","a"]' };
const position = 'greatest hits\u0000["Solar Fields","album#🎸\uE000"]';

describe('cursor', () => {
  it('round-trips the exact position', () => {
    expect(decodeCursor(encodeCursor(position, scope, 's'), scope, 's')).toEqual({ position });
  });

  it('carries a read hint under the same MAC', () => {
    const hint = { more: [true, false, true], ahead: [2, 0, 2, 2, 1] };
    const cursor = encodeCursor(position, scope, 's', hint);
    expect(decodeCursor(cursor, scope, 's')).toEqual({ position, hint });
    expect(() => decodeCursor(cursor, { ...scope, order: 'desc' }, 's')).toThrow(/cursor rejected/);
  });

  it('rejects a cursor from another collection, order, filter or secret', () => {
    const cursor = encodeCursor(position, scope, 's');
    for (const other of [
      { ...scope, collection: 'albums-hash' },
      { ...scope, order: 'desc' },
      { ...scope, filter: '["prefix","b"]' },
    ]) {
      expect(() => decodeCursor(cursor, other, 's')).toThrow(/cursor rejected/);
    }
    expect(() => decodeCursor(cursor, scope, 'another secret')).toThrow(/cursor rejected/);
  });

  it('rejects every single-character change', () => {
    const cursor = encodeCursor(position, scope, 's');
    for (let i = 0; i < cursor.length; i++) {
      const replacement = cursor[i] === 'A' ? 'B' : 'A';
      const tampered = cursor.slice(0, i) + replacement + cursor.slice(i + 1);
      expect(() => decodeCursor(tampered, scope, 's'), `position ${i}`).toThrow(/cursor rejected/);
    }
  });

  it('rejects garbage', () => {
    for (const garbage of ['', '.', 'abc', 'abc.def', '..', '%%%.%%%', 'eyJ2IjoxfQ.']) {
      expect(() => decodeCursor(garbage, scope, 's')).toThrow(/cursor rejected/);
    }
  });
});
