import { bisectRight } from '../../src/core/collation';
import { normalize } from '../../src/core/normalize';
import { pick } from '../../devtools/random';

/**
 * Album titles shaped like the seed's MusicBrainz data: mostly Latin words, "the …"
 * and "live …" frequent, some Cyrillic, CJK and emoji, a few very popular titles
 * ("Greatest Hits", "Demo"). The seed's boundaries cut 5.5M real titles into 21
 * equal ranges, so real titles fill every range evenly; these are drawn until each
 * range holds its share, which makes the seed's boundaries balanced for them too.
 */
const WORDS = (
  'love night dreams home live light time heart blue world life fire soul black dark day road sun rain ' +
  'wild summer shadow ocean river echo ghost silver golden stone city moon star angel electric midnight ' +
  'paradise heaven storm winter fall rise machine memory broken lost young free open secret silent sweet ' +
  'velvet crystal glass iron empire kingdom garden forest desert island mountain valley harbor station ' +
  'voyage journey return escape promise story song songs tales anthem ballad blues rhythm groove sessions ' +
  'acoustic unplugged remixes essentials collection anthology chapter volume part edition deluxe remastered ' +
  'agartha barstow canyon cyan delta feud grave kannaval notice platforms rituals skylten surtr touch ' +
  'walking zero yesterday xanadu quiet queen jungle karma orbit ultra vortex neon hollow mirror'
).split(' ');
const CAPITALIZED_FIRST = [
  'the',
  'live',
  'a',
  'in',
  'my',
  'no',
  'for',
  'to',
  'on',
  'we',
  'i',
  'de',
  'la',
  'le',
  'el',
  'die',
  'der',
];
const OTHER_SCRIPTS = [
  'голос',
  'ночь',
  'любовь',
  'жизнь',
  'яблоко',
  'ветер',
  'песни',
  'звезда',
  'море',
  'αγάπη',
  'ζωή',
  'ノスタルジア',
  'ひかり',
  '夢',
  '愛',
  '学',
  '舒',
  '进',
  '潮',
  '陳',
  '사랑',
  'שלום',
  'سلام',
  '🍅',
  '🫧',
  'Éclair',
  'Ödland',
  'Über',
  'Ça va',
];
const SUFFIXES = [
  '',
  '',
  '',
  '',
  ' EP',
  ' (Live)',
  ' (Remastered)',
  ' / B-side',
  ', Vol. 2',
  ': Deluxe',
  ' (Demo)',
  ' 1999',
  ' Remix',
];
const POPULAR = ['Greatest Hits', 'Demo', 'Live', 'The Very Best Of', 'Untitled'];

function syllableWord(random: () => number): string {
  const consonants = 'bcdfghjklmnprstvwyz';
  const vowels = 'aeiouy';
  let word = '';
  const syllables = 1 + Math.floor(random() * 3);
  for (let i = 0; i < syllables; i++) word += pick(random, [...consonants]) + pick(random, [...vowels]);
  return word;
}

function word(random: () => number): string {
  const r = random();
  if (r < 0.55) return pick(random, WORDS);
  if (r < 0.9) return syllableWord(random);
  if (r < 0.95) return String(Math.floor(random() * 2000));
  return pick(random, OTHER_SCRIPTS);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One title: 1–4 words, a frequent article or "live" first, an edition suffix now and then. */
export function randomTitle(random: () => number): string {
  if (random() < 0.02) return pick(random, POPULAR);
  const words: string[] = [];
  if (random() < 0.25) words.push(pick(random, CAPITALIZED_FIRST));
  if (random() < 0.06) words.push(pick(random, OTHER_SCRIPTS));
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) words.push(word(random));
  return words.map(capitalize).join(' ') + pick(random, SUFFIXES);
}

/**
 * `count` titles spread evenly over the ranges of `boundaries` (normalized values),
 * in a shuffled order. Titles are drawn at random and kept while their range still
 * lacks its share; popular titles are kept whatever their range, as in real data.
 */
export function titlesOverRanges(random: () => number, boundaries: readonly string[], count: number): string[] {
  const share = Math.ceil(count / boundaries.length);
  const filled = new Array<number>(boundaries.length).fill(0);
  const titles: string[] = [];
  for (let tries = 0; titles.length < count; tries++) {
    if (tries > count * 10_000) throw new Error('titles: could not fill every boundary range');
    const title = randomTitle(random);
    const range = bisectRight(boundaries, normalize(title, 'nfkd-lower')) - 1;
    const popular = POPULAR.includes(title);
    if (!popular && filled[range]! >= share) continue;
    filled[range]!++;
    titles.push(title);
  }
  return titles;
}
