import { allFakers } from '@faker-js/faker';
import { seededRandom, shuffle } from './random';

/**
 * Word and name lists for generated data, taken from faker's locale definitions
 * (real first names, surnames and words in many scripts) rather than invented
 * syllables, so that separators meet realistic shared prefixes.
 */

type Definitions = Record<string, unknown>;

function definitions(locale: string): Definitions {
  const faker = (allFakers as Record<string, { rawDefinitions: Definitions }>)[locale];
  if (!faker) throw new Error(`faker has no locale ${locale}`);
  return faker.rawDefinitions;
}

/** All strings under a definitions path, whatever its grouping (generic/female/male). */
function strings(locale: string, ...path: string[]): string[] {
  let node: unknown = definitions(locale);
  for (const part of path) node = (node as Record<string, unknown> | undefined)?.[part];
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      // Skip templates such as '{{person.first_name}}'.
      if (!value.includes('{{')) out.push(value);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(node);
  return [...new Set(out)];
}

/** Distinct words in a seeded order: faker's lists are alphabetical, and a Zipf pick must not favour 'a'. */
function words(list: string[]): string[] {
  const distinct = [...new Set(list.flatMap((item) => item.split(/\s+/)).filter((w) => w.length > 0))];
  shuffle(seededRandom(distinct.length), distinct);
  return distinct;
}

let cachedEnglish: string[] | undefined;
/** English words: dictionary words plus the words of song, album and book titles. */
export function englishWords(): string[] {
  cachedEnglish ??= words([
    ...strings('en', 'word'),
    ...strings('en', 'music', 'song_name'),
    ...strings('en', 'music', 'album'),
    ...strings('en', 'book', 'title'),
  ]);
  return cachedEnglish;
}

/** Locales whose words make the non-English titles, each a different script or accents. */
export const TITLE_LOCALES = [
  'de',
  'fr',
  'es',
  'vi',
  'pl',
  'ru',
  'uk',
  'el',
  'ja',
  'zh_CN',
  'ko',
  'ar',
  'he',
  'fa',
  'th',
  'hy',
];

const localeWordCache = new Map<string, string[]>();
/** Words of one locale: its lorem words, song names and person names. */
export function localeWords(locale: string): string[] {
  let list = localeWordCache.get(locale);
  if (!list) {
    list = words([
      ...strings(locale, 'lorem', 'word'),
      ...strings(locale, 'music', 'song_name'),
      ...strings(locale, 'person', 'first_name'),
      ...strings(locale, 'person', 'last_name'),
    ]);
    if (list.length === 0) throw new Error(`no words for locale ${locale}`);
    localeWordCache.set(locale, list);
  }
  return list;
}

/** First names and surnames of one locale. */
export function localeNames(locale: string): { first: string[]; last: string[] } {
  return { first: strings(locale, 'person', 'first_name'), last: strings(locale, 'person', 'last_name') };
}
