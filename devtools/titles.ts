import { pick, pickZipf, seededRandom, type Random } from './random';
import { bisectRight } from '../src/core/collation';
import { normalize } from '../src/core/normalize';
import { englishWords, localeWords, TITLE_LOCALES } from './word-pools';
import { zipfCounts, type GeneratedKeys } from './zipf-keys';

/**
 * Generated album titles with the shape of seed 004's MusicBrainz data:
 *
 * - repeats follow a Zipf-like law: the rank-r title has about top · r^-0.57 copies
 *   (fitted to the seed's quantiles: 90 % of titles ≤ 2 copies, 99.99 % ≤ 221), the
 *   top one `topShare` of all keys (the seed's "Greatest Hits" is 0.08 %);
 * - first characters skewed like the seed's (t, s, a, l most common), mostly Latin
 *   titles in Title Case with accents, plus Cyrillic, Greek, CJK, Hangul, Arabic,
 *   Hebrew, Thai, Armenian, emoji and characters from U+E000–U+FFFF (private use,
 *   CJK compatibility, presentation and full-width forms).
 */
export interface TitleOptions {
  /** Total keys (with repeats). */
  readonly keys: number;
  readonly seed?: number;
  /** Share of all keys the most repeated title has (default 0.001). */
  readonly topShare?: number;
  /** Zipf exponent of the repeats (default 0.57). */
  readonly exponent?: number;
}

const STARTERS = [
  'The',
  'The',
  'The',
  'The',
  'The',
  'The',
  'The',
  'The',
  'The',
  'The',
  'The',
  'This',
  'To',
  'Time',
  'Tonight',
  'True',
  'Two',
  'Summer',
  'Sweet',
  'Still',
  'Songs',
  'Sound',
  'Stay',
  'Star',
  'Soul',
  'Silent',
  'A',
  'All',
  'After',
  'Another',
  'Alive',
  'Always',
  'Angel',
  'Live',
  'Love',
  'Life',
  'Light',
  'Lost',
  'Last',
  'Little',
];

/** One random title (raw: cased and accented as people type them). */
export function randomTitle(random: Random): string {
  const roll = random();
  const english = englishWords();
  const wordCount = 1 + Math.floor(random() * random() * 5);
  const parts: string[] = [];
  if (roll < 0.8) {
    if (random() < 0.4) parts.push(pick(random, STARTERS));
    while (parts.length < wordCount + 1) parts.push(titleCase(pickZipf(random, english, 0.6)));
  } else if (roll < 0.95) {
    const locale = pick(random, TITLE_LOCALES);
    const list = localeWords(locale);
    const joiner = locale === 'ja' || locale === 'zh_CN' ? '' : ' ';
    const local: string[] = [];
    while (local.length < wordCount) local.push(pickZipf(random, list, 0.5));
    parts.push(local.join(joiner));
  } else if (roll < 0.975) {
    parts.push(titleCase(pick(random, english)), emoji(random));
    if (random() < 0.5) parts.reverse();
  } else {
    parts.push(wideOrPrivate(random, 1 + Math.floor(random() * 4)));
    if (random() < 0.5) parts.push(titleCase(pick(random, english)));
  }
  let title = parts.join(' ');
  const decoration = random();
  if (decoration < 0.05) title += ' (Live)';
  else if (decoration < 0.08) title += ` Vol. ${1 + Math.floor(random() * 9)}`;
  else if (decoration < 0.1) title += ` / ${titleCase(pick(random, english))}`;
  else if (decoration < 0.12) title += ' EP';
  else if (decoration < 0.14) title += `: ${titleCase(pick(random, english))}`;
  return title;
}

function titleCase(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

const EMOJI_RANGES: readonly [number, number][] = [
  [0x1f300, 0x1f5ff],
  [0x1f600, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
];
/** Astral characters: UTF-16 surrogates, so JS's own `<` misplaces them. */
function emoji(random: Random): string {
  const [lo, hi] = pick(random, EMOJI_RANGES);
  return String.fromCodePoint(lo + Math.floor(random() * (hi - lo + 1)));
}

const BMP_HIGH_RANGES: readonly [number, number][] = [
  [0xe000, 0xf8ff], // private use
  [0xf900, 0xfaff], // CJK compatibility ideographs (NFKD maps them)
  [0xfb50, 0xfdff], // Arabic presentation forms (NFKD decomposes them)
  [0xff10, 0xff5a], // full-width digits and letters (NFKD → ASCII)
  [0xff66, 0xff9d], // half-width katakana
];
/** Characters in U+E000–U+FFFF, which UTF-16 sorts above every emoji. */
function wideOrPrivate(random: Random, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) {
    const [lo, hi] = pick(random, BMP_HIGH_RANGES);
    s += String.fromCodePoint(lo + Math.floor(random() * (hi - lo + 1)));
  }
  return s;
}

/** Distinct titles and their Zipf-like copy counts, `keys` in all. */
export function seedShapedTitles(options: TitleOptions): GeneratedKeys {
  const random = seededRandom(options.seed ?? 4);
  const top = Math.max(1, Math.round(options.keys * (options.topShare ?? 0.001)));
  const exponent = options.exponent ?? 0.57;
  return zipfCounts(options.keys, top, exponent, () => randomTitle(random));
}

/** Titles that many albums share: kept whatever their range, as in real data. */
const POPULAR = ['Greatest Hits', 'Demo', 'Live', 'The Very Best Of', 'Untitled'];

/**
 * `count` titles spread evenly over the ranges of `boundaries` (normalized values,
 * nfkd-lower), in a random order: the seed's boundaries cut real titles into equal
 * ranges, so titles are drawn until each range holds its share. One in fifty is a
 * popular title, kept whatever its range, so listings meet long runs of ties.
 */
export function titlesOverRanges(random: Random, boundaries: readonly string[], count: number): string[] {
  const share = Math.ceil(count / boundaries.length);
  const filled = new Array<number>(boundaries.length).fill(0);
  const titles: string[] = [];
  for (let tries = 0; titles.length < count; tries++) {
    if (tries > count * 10_000) throw new Error('titles: could not fill every boundary range');
    const popular = random() < 0.02;
    const title = popular ? pick(random, POPULAR) : randomTitle(random);
    const range = bisectRight(boundaries, normalize(title, 'nfkd-lower')) - 1;
    if (!popular && filled[range]! >= share) continue;
    filled[range]!++;
    titles.push(title);
  }
  return titles;
}
