import { describe, expect, it } from 'vitest';
import { bisectLeft, bisectRight, compareKeys, utf8Length } from '../../../src/core/collation';
import { seededRandom } from '../../../devtools/random';

/** The oracle: DynamoDB's order is the order of the UTF-8 bytes. */
const byUtf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const sign = (n: number) => Math.sign(n);

const INTERESTING = [
  0x0, 0x1, 0x41, 0x7f, 0x80, 0xff, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xe001, 0xf8ff, 0xfb02, 0xff21, 0xfffd, 0xffff,
  0x10000, 0x1f3b8, 0x1f600, 0x1fac0, 0x20000, 0x10ffff,
];

function randomString(random: () => number): string {
  const length = Math.floor(random() * 6);
  let text = '';
  for (let i = 0; i < length; i++) {
    const roll = random();
    const codePoint =
      roll < 0.5
        ? INTERESTING[Math.floor(random() * INTERESTING.length)]!
        : roll < 0.75
          ? Math.floor(random() * 0xd800)
          : roll < 0.9
            ? 0xe000 + Math.floor(random() * 0x2000)
            : 0x10000 + Math.floor(random() * 0x100000);
    text += String.fromCodePoint(codePoint);
  }
  return text;
}

describe('compareKeys', () => {
  it('puts emoji after U+E000–U+FFFF, as UTF-8 bytes do and JavaScript < does not', () => {
    for (const bmp of ['\uE000', '\uF8FF', '\uFF21', '\uFFFD', '\uFFFF']) {
      for (const astral of ['\u{10000}', '\u{1F3B8}', '\u{1F600}', '\u{10FFFF}']) {
        expect(compareKeys(bmp, astral), `${bmp} < ${astral}`).toBeLessThan(0);
        expect(compareKeys(astral, bmp)).toBeGreaterThan(0);
        expect(bmp < astral).toBe(false); // the trap this function exists for
      }
    }
  });

  it('agrees with UTF-8 byte order on 200,000 random pairs of hard strings', () => {
    const random = seededRandom(1);
    for (let n = 0; n < 200_000; n++) {
      const a = randomString(random);
      const b = random() < 0.3 ? a + randomString(random) : randomString(random);
      expect(sign(compareKeys(a, b))).toBe(sign(byUtf8(a, b)));
    }
  });

  it('sorts a list exactly as its UTF-8 bytes sort', () => {
    const random = seededRandom(2);
    const list = Array.from({ length: 5000 }, () => randomString(random));
    expect([...list].sort(compareKeys)).toEqual([...list].sort(byUtf8));
  });

  it('is zero only for equal strings', () => {
    expect(compareKeys('a\u0000', 'a')).toBeGreaterThan(0);
    expect(compareKeys('', '')).toBe(0);
    expect(compareKeys('\u{1F600}', '\u{1F600}')).toBe(0);
  });
});

describe('bisect', () => {
  const sorted = ['', 'a', 'a', 'b', '\uE000', '\u{1F600}'];
  it('matches Python bisect_right and bisect_left in code point order', () => {
    expect(bisectRight(sorted, 'a')).toBe(3);
    expect(bisectLeft(sorted, 'a')).toBe(1);
    expect(bisectRight(sorted, '\uFFFF')).toBe(5);
    expect(bisectRight(sorted, '\u{1F600}')).toBe(6);
    expect(bisectRight(sorted, '')).toBe(1);
    expect(bisectLeft(sorted, '')).toBe(0);
  });
});

describe('utf8Length', () => {
  it('counts the bytes Buffer encodes', () => {
    const random = seededRandom(3);
    for (let n = 0; n < 2000; n++) {
      const text = randomString(random);
      expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
  });
});
