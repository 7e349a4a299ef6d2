import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../../src/core/collation';
import { KWayMerge } from '../../../src/core/merge';

describe('KWayMerge refill waves', () => {
  it('takes a top-up for a source that still has buffered items, in order, without asking for it', () => {
    const merge = new KWayMerge<string>(2, (key) => key, 'asc');
    merge.supply(0, ['a', 'c'], false);
    merge.supply(1, ['b', 'z'], true);
    const out: string[] = [];
    expect(merge.emitInto(out, 1)).toEqual({ kind: 'full' });
    expect(out).toEqual(['a']);
    merge.supply(0, ['d', 'e'], true); // source 0 still holds 'c'
    expect(merge.emitInto(out, Infinity)).toEqual({ kind: 'done' });
    expect(out).toEqual(['a', 'b', 'c', 'd', 'e', 'z']);
  });

  it('refuses items for a source that is done or has nothing buffered and was not asked', () => {
    const merge = new KWayMerge<string>(2, (key) => key, 'asc');
    merge.supply(0, ['a'], true);
    expect(() => merge.supply(0, ['b'], true)).toThrow(/not waiting/);
  });

  it('merges keys around U+D800–U+FFFF in code point order', () => {
    const keys = ['a', '\uE000', '\u{1F600}', '\uFFFF', 'z', '\u00E9', '\u{10000}', '\uD7FF'];
    const merge = new KWayMerge<string>(keys.length, (key) => key, 'asc');
    keys.forEach((key, source) => {
      merge.supply(source, [key], true);
    });
    const out: string[] = [];
    merge.emitInto(out, Infinity);
    expect(out).toEqual([...keys].sort(compareKeys));
  });
});
