import { beforeAll, describe, expect, it } from 'vitest';
import { cutBoundaries } from '../../../src/boundaries/cut-boundaries';
import { keyCountsFromMap, keyCountsOf, type KeyCounts } from '../../../src/boundaries/key-counts';
import { shortestSeparator, shortestSeparatorLength } from '../../../src/boundaries/separator';
import { rangeStrategy } from '../../../src/core/strategies/range';
import { normalize } from '../../../src/core/normalize';
import { normalizeKey } from '../../../src/boundaries/normalize-keys';
import { seededRandom, pick } from '../../../devtools/random';
import { seedShapedTitles } from '../../../devtools/titles';
import { countsOf, oracleShard, valueBytes } from '../../support/boundary-oracle';

/** Code points that break UTF-16 ordering, prefixes and normalization. */
const HARD = [
  'a',
  'b',
  't',
  'z',
  ' ',
  '\u0001',
  '\u007f',
  'é',
  'e\u0301',
  'ß',
  'я',
  'ж',
  '中',
  '가',
  '\uD7FF',
  '\uE000',
  '\uE001',
  '\uF8FF',
  '\uF900',
  '\uFB50',
  '\uFF21',
  '\uFF5A',
  '\uFFFD',
  '\uFFFF',
  '\u{10000}',
  '\u{1F600}',
  '\u{1F601}',
  '\u{1F64F}',
  '\u{1F3B8}',
  '\u{1FAC0}',
  '\u{20000}',
  '\u{E0041}',
  '\u{10FFFF}',
];

function hardString(random: () => number): string {
  let s = '';
  const length = Math.floor(random() * 5);
  for (let i = 0; i < length; i++) s += pick(random, HARD);
  return s;
}

const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
const codePoints = (s: string): string[] => Array.from(s);

describe('code point order of the sorted keys', () => {
  it('sorts distinct keys exactly as UTF-8 bytes do (emoji above U+E000–U+FFFF)', () => {
    const random = seededRandom(5);
    const keys = new Set<string>();
    while (keys.size < 20_000) keys.add(hardString(random));
    const sorted = keyCountsOf(keys).values;
    expect(sorted).toEqual([...keys].sort(byBytes));
    expect(sorted.indexOf('\uFFFF')).toBeLessThan(sorted.indexOf('\u{10000}'));
  });
});

describe('shortest separators', () => {
  it('satisfy a < s <= b in byte order and are one code point longer than the shared prefix', () => {
    const random = seededRandom(6);
    const failures: string[] = [];
    for (let n = 0; n < 50_000; n++) {
      let a = hardString(random);
      let b = hardString(random);
      const order = byBytes(a, b);
      if (order === 0) continue;
      if (order > 0) [a, b] = [b, a];
      const s = shortestSeparator(a, b);
      const ca = codePoints(a);
      const cb = codePoints(b);
      let shared = 0;
      while (shared < ca.length && shared < cb.length && ca[shared] === cb[shared]) shared++;
      const ok =
        byBytes(a, s) < 0 &&
        byBytes(s, b) <= 0 &&
        s === cb.slice(0, shared + 1).join('') &&
        shortestSeparatorLength(a, b) === shared + 1 &&
        s.isWellFormed();
      if (!ok && failures.length < 5)
        failures.push(`${JSON.stringify(a)} / ${JSON.stringify(b)} → ${JSON.stringify(s)}`);
    }
    expect(failures).toEqual([]);
  });

  it('never splits a surrogate pair when emoji share their high surrogate', () => {
    // U+1F600 and U+1F601 are D83D DE00 and D83D DE01.
    expect(shortestSeparator('x\u{1F600}a', 'x\u{1F601}')).toBe('x\u{1F601}');
    expect(shortestSeparator('\uFFFF', '\u{10000}')).toBe('\u{10000}');
    expect(shortestSeparator('the best', 'the human touch')).toBe('the h');
  });
});

describe('routing with the produced boundaries equals bisect_right - 1 over UTF-8 bytes', () => {
  let keys: KeyCounts<readonly string[]>;
  beforeAll(() => {
    const map = new Map<string, number>();
    const generated = countsOf(seedShapedTitles({ keys: 200_000, seed: 31 }));
    generated.values.forEach((v, i) => {
      map.set(v, generated.counts[i]!);
    });
    // Plus hard strings around the emoji / U+E000–U+FFFF frontier, repeated enough to hold shards.
    const random = seededRandom(8);
    for (let n = 0; n < 30_000; n++) {
      const value = normalize(
        pick(random, ['\uE000', '\uFF21', '\uFFFD', '\u{1F600}', '\u{1F3B8}', 'a']) + hardString(random),
        'nfkd-lower',
      );
      map.set(value, (map.get(value) ?? 0) + 1 + Math.floor(random() * 3));
    }
    keys = keyCountsFromMap(map);
  });

  for (const shards of [21, 500]) {
    it(`${shards} shards: every key, as the service routes it`, () => {
      const { boundaries } = cutBoundaries(keys, { shards });
      const bytes = boundaries.map((b) => Buffer.from(b));
      expect(boundaries[0]).toBe('');
      for (let i = 1; i < bytes.length; i++) expect(Buffer.compare(bytes[i - 1]!, bytes[i]!)).toBeLessThanOrEqual(0);
      const strategy = rangeStrategy(boundaries);
      const values = valueBytes(keys);
      let mismatches = 0;
      keys.values.forEach((value, i) => {
        const expected = oracleShard(bytes, values[i]!);
        const shards = strategy.shardsForValue(value);
        if (shards[shards.length - 1] !== expected) mismatches++;
      });
      expect(mismatches).toBe(0);
    });
  }

  it('keeps the shards of U+E000–U+FFFF keys before the shards of emoji keys', () => {
    const { boundaries } = cutBoundaries(keys, { shards: 500 });
    const strategy = rangeStrategy(boundaries);
    const shardOf = (v: string): number => strategy.shardsForValue(v)[0]!;
    expect(shardOf('\uE000')).toBeLessThanOrEqual(shardOf('\uFFFD'));
    expect(shardOf('\uFFFD')).toBeLessThan(shardOf('\u{1F3B8}'));
    expect(shardOf('\u{1F3B8}')).toBeLessThan(shardOf('\u{1F600}'));
    // Boundaries exist on both sides of the frontier, so the test exercises it.
    expect(boundaries.some((b) => b.startsWith('\uFF21') || b.startsWith('\uE000') || b.startsWith('\uFFFD'))).toBe(
      true,
    );
    expect(boundaries.some((b) => (b.codePointAt(0) ?? 0) >= 0x1f000)).toBe(true);
  });
});

describe('normalizeKey', () => {
  it('equals normalize() on ASCII and non-ASCII keys alike', () => {
    const random = seededRandom(9);
    const samples = ['The Human Touch', 'ＷＩＤＥ', 'Ägypten', 'ﬂower', '\u0000A\u007f', 'İstanbul', 'ΣΊΣΥΦΟΣ', ''];
    for (let n = 0; n < 5_000; n++) samples.push(hardString(random) + pick(random, ['A', 'Z', 'é', 'Ⅻ', '㎏']));
    for (const s of samples) {
      expect(normalizeKey(s, 'nfkd-lower')).toBe(normalize(s, 'nfkd-lower'));
      expect(normalizeKey(s, 'none')).toBe(s);
    }
  });
});
