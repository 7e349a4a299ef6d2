import fc from 'fast-check';

const cp = (min: number, max: number) => fc.integer({ min, max }).map((n) => String.fromCodePoint(n));

/**
 * One code point, biased to where UTF-16 and UTF-8 order disagree (U+E000–U+FFFF vs
 * astral), to the separator U+0000, and to characters NFKD or lower-casing change.
 */
export const codePoint = fc.oneof(
  { weight: 3, arbitrary: cp(0x20, 0x7e) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\u0000',
      '\u0001',
      '\u007f',
      '\u0080',
      '\u00ff',
      '\u07ff',
      '\u0800',
      '\ud7ff',
      '\ue000',
      '\uf8ff',
      '\ufb02',
      '\uff21',
      '\ufffd',
      '\uffff',
      '\u{10000}',
      '\u{1f600}',
      '\u{10ffff}',
      'É',
      'ß',
      'İ',
      'ﬁ',
      'Å',
    ),
  },
  { weight: 1, arbitrary: cp(0x80, 0xd7ff) },
  { weight: 1, arbitrary: cp(0xe000, 0xffff) },
  { weight: 1, arbitrary: cp(0x10000, 0x10ffff) },
);

/** A well-formed string (no lone surrogates). */
export const text = (maxLength = 12) => fc.string({ unit: codePoint, maxLength });

/** A string that may hold lone surrogates, as a JSON body can (`"\ud800"`). */
export const rawText = (maxLength = 12) =>
  fc
    .string({
      unit: fc.oneof(
        codePoint,
        cp(0xd800, 0xdfff).map((s) => s),
      ),
      maxLength,
    })
    .map((s) => s);

/** A lone surrogate as a string of one UTF-16 unit. */
export const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));
