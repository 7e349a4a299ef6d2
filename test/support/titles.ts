import { pick, seededRandom } from '../../devtools/random';

/**
 * Test titles with everything that breaks naive ordering: emoji (astral, UTF-16
 * surrogates) against U+E000–U+FFFF, combining marks against precomposed letters,
 * fullwidth forms, Cyrillic, Greek, CJK (BMP and astral), Hangul, case variants that
 * normalize alike, values that are prefixes of each other, control characters just
 * above the index separator, and thousands of ties.
 */
const FIXED = [
  '',
  'a',
  'A',
  'a b',
  'ab',
  'a\u0001',
  'a\u0001b',
  'a\u0002',
  'a\u007f',
  'a ',
  'a!',
  'Leaving Home',
  'leaving home',
  'LEAVING HOME',
  'Ｌｅａｖｉｎｇ Ｈｏｍｅ',
  'Heavy Migration',
  '2 Pie Island',
  'Space Cadet',
  'Ägypten',
  'A\u0308gypten',
  'ägypten',
  'Österreich',
  'Tōkyō',
  'Øresund',
  'ﬂower',
  'flower',
  'Ŀlum',
  'Москва',
  'москва',
  'Голос',
  'голос',
  'Ελλάδα',
  'ΟΔΟΣ',
  'οδος',
  '北京',
  '東京',
  '서울',
  '𠀋 rare',
  '𠀀',
  '🎸 guitar',
  '🎸',
  '👍',
  '😀 smile',
  '🫀',
  '\u{1F600}\u{1F601}',
  'a🎸',
  'a\uE000',
  'a\uFFFD',
  'a\uFF5E',
  '\uE000',
  '\uE001 pua',
  '\uF8FF',
  '\uFFFD replacement',
  '\uFFFC',
  'ｗｉｄｅ',
  'Ｗｉｄｅ',
  'wide',
  'zzz',
  'Zzz',
  '~tilde',
  '\u00a0nbsp',
  'the human touch',
  'The Human Touch',
  'agartha',
  'Agartha!',
  'walking away',
  'Walking Away',
  'rituals',
  'skylten',
  'tonttujen jouluyö: a',
  "mir ist's gleich / i",
];

const WORDS = [
  'the',
  'live',
  'love',
  'night',
  'sound',
  'time',
  'dream',
  'song',
  'blue',
  'road',
  'home',
  'star',
  'city',
  'rain',
];
const SCRIPTS = ['Ж', 'λ', '東', '한', 'ß', 'É', 'e\u0301', '🎵', '\uE123', '\uFF21', 'ø', 'Ω', '\u05d0', '\u0627'];

/** `count` varied titles from a seeded generator plus the fixed hard cases. */
export function variedTitles(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const titles = [...FIXED];
  while (titles.length < count) {
    const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, WORDS));
    let title = words.join(' ');
    if (random() < 0.35) title = pick(random, SCRIPTS) + title;
    if (random() < 0.2) title = title + ' ' + pick(random, SCRIPTS);
    if (random() < 0.3) title = title.toUpperCase();
    titles.push(title);
  }
  return titles;
}

/** `count` ties of one title, written in case and width variants that normalize alike. */
export function ties(title: string, count: number): string[] {
  const variants = [title, title.toUpperCase(), title.toLowerCase(), toFullwidth(title)];
  return Array.from({ length: count }, (_, i) => variants[i % variants.length]!);
}

function toFullwidth(text: string): string {
  return text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));
}
