import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, type CursorScope } from '../../../src/core/cursor';
import type { ShardlineError } from '../../../src/core/errors';

const scope: CursorScope = { collection: 'albums', direction: 'asc', filter: '["prefix","a"]' };
const position = 'greatest hits\u0000["Solar Fields","album#🎸\uE000"]';

describe('cursor', () => {
  it('round-trips the exact position', () => {
    expect(decodeCursor(encodeCursor(position, scope, 's'), scope, 's')).toEqual({ position });
  });

  it('carries a read hint under the same MAC', () => {
    const hint = { more: [true, false, true], ahead: [2, 0, 2, 2, 1] };
    const cursor = encodeCursor(position, scope, 's', hint);
    expect(decodeCursor(cursor, scope, 's')).toEqual({ position, hint });
    expect(() => decodeCursor(cursor, { ...scope, direction: 'desc' }, 's')).toThrow(/cursor rejected/);
  });

  it('rejects a cursor from another collection, direction, filter or secret', () => {
    const cursor = encodeCursor(position, scope, 's');
    for (const other of [
      { ...scope, collection: 'albums-hash' },
      { ...scope, direction: 'desc' },
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

  it('still reads a cursor issued before this build: the wire format and its MAC input are fixed', () => {
    // Issued for albums, `desc`, prefix "a" under "fixed secret", with a read hint; pinned as text.
    const issued =
      'eyJ2IjoyLCJzIjoiVW9mSEdUZjMiLCJrIjoiZ3JlYXRlc3QgaGl0c1x1MDAwMFtcIlNvbGFyIEZpZWxkc1wiLFwi' +
      'YWxidW0j8J-OuO6AgFwiXSIsImgiOnsibSI6IjEwMSIsImEiOiIyMDIyMSJ9fQ.p4YKp29LLEIXhTJGH0UPwQ';
    const hint = { more: [true, false, true], ahead: [2, 0, 2, 2, 1] };
    const desc = { ...scope, direction: 'desc' };
    expect(decodeCursor(issued, desc, 'fixed secret')).toEqual({ position, hint });
    expect(encodeCursor(position, desc, 'fixed secret', hint)).toBe(issued);
    expect(() => decodeCursor(issued, scope, 'fixed secret')).toThrow(/cursor rejected/);
  });

  it('rejects garbage', () => {
    for (const garbage of ['', '.', 'abc', 'abc.def', '..', '%%%.%%%', 'eyJ2IjoxfQ.']) {
      expect(() => decodeCursor(garbage, scope, 's')).toThrow(/cursor rejected/);
    }
  });

  it('says which refusal it is: another secret, another version, an edit', () => {
    const reason = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return `${(error as ShardlineError).details?.reason}: ${(error as Error).message}`;
      }
      return 'accepted';
    };
    const cursor = encodeCursor(position, scope, 'secret one');
    expect(reason(() => decodeCursor(cursor, scope, 'secret two'))).toMatch(/^foreign_secret: .*another CURSOR_SECRET/);
    expect(reason(() => decodeCursor(cursor, { ...scope, direction: 'desc' }, 'secret one'))).toMatch(/^altered: /);
    const [payload, tag] = cursor.split('.');
    const content = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    const edited = (change: object) =>
      `${Buffer.from(JSON.stringify({ ...content, ...change })).toString('base64url')}.${tag}`;
    expect(reason(() => decodeCursor(edited({ k: 'elsewhere' }), scope, 'secret one'))).toMatch(/^altered: /);
    expect(reason(() => decodeCursor(edited({ v: 1 }), scope, 'secret one'))).toMatch(/^old_version: /);
    // A payload claiming our key id still needs our MAC.
    const forged = encodeCursor(position, scope, 'secret two').split('.')[0];
    expect(reason(() => decodeCursor(`${forged}.${tag}`, scope, 'secret one'))).toMatch(/^foreign_secret: /);
    expect(reason(() => decodeCursor('not-base64-json.x', scope, 'secret one'))).toMatch(/^malformed: /);
  });
});
