import { describe, expect, it } from 'vitest';
import { compareKeys } from '../../src/core/collation';
import { IndexHeap } from '../../src/core/heap';
import { KWayMerge } from '../../src/core/merge';
import { seededRandom } from '../../scripts/lib/random';

describe('KWayMerge refill waves', () => {
  it('takes a top-up for a source that still has buffered items, in order, without asking for it', () => {
    const merge = new KWayMerge<string>(2, (key) => key, 'asc');
    merge.supply(0, ['a', 'c'], false);
    merge.supply(1, ['b', 'z'], true);
    expect(merge.next()).toMatchObject({ kind: 'item', item: 'a' });
    merge.supply(0, ['d', 'e'], true); // source 0 still holds 'c'
    const out: string[] = [];
    for (let step = merge.next(); step.kind === 'item'; step = merge.next()) out.push(step.item);
    expect(out).toEqual(['b', 'c', 'd', 'e', 'z']);
    expect(merge.next().kind).toBe('done');
  });

  it('refuses items for a source that is done or has nothing buffered and was not asked', () => {
    const merge = new KWayMerge<string>(2, (key) => key, 'asc');
    merge.supply(0, ['a'], true);
    expect(() => merge.supply(0, ['b'], true)).toThrow(/not waiting/);
  });

  it('merges keys around U+D800–U+FFFF in code point order (native compare only where it agrees)', () => {
    const keys = ['a', '\uE000', '\u{1F600}', '\uFFFF', 'z', '\u00E9', '\u{10000}', '\uD7FF'];
    const merge = new KWayMerge<string>(keys.length, (key) => key, 'asc');
    keys.forEach((key, source) => merge.supply(source, [key], true));
    const out: string[] = [];
    for (let step = merge.next(); step.kind === 'item'; step = merge.next()) out.push(step.item);
    expect(out).toEqual([...keys].sort(compareKeys));
  });
});

describe('IndexHeap.replaceTop (bottom-up)', () => {
  it('keeps the minimum on top through random replacements', () => {
    const random = seededRandom(9);
    const values = Array.from({ length: 37 }, () => random());
    const heap = new IndexHeap((a, b) => values[a]! < values[b]!);
    values.forEach((_, i) => heap.push(i));
    for (let round = 0; round < 2000; round++) {
      const top = heap.peek()!;
      expect(values[top]).toBe(Math.min(...values));
      values[top] = values[top]! + random();
      heap.replaceTop(top);
    }
  });
});
