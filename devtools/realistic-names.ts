import { pick, pickZipf, seededRandom, shuffle, type Random } from './random';
import { localeNames } from './word-pools';
import { zipfCounts, type GeneratedKeys } from './zipf-keys';

/**
 * Generated person names ("First Last", family name first in CJK locales) from
 * faker's real name lists in many locales, popular names more frequent (Zipf over
 * each list in a seeded order), so that common pairs repeat like real names do.
 */
const LOCALES: readonly [string, number][] = [
  ['en', 40],
  ['de', 6],
  ['fr', 6],
  ['es', 6],
  ['it', 4],
  ['pt_BR', 4],
  ['pl', 3],
  ['nl', 3],
  ['sv', 2],
  ['tr', 2],
  ['vi', 2],
  ['ru', 5],
  ['uk', 2],
  ['el', 1],
  ['ja', 4],
  ['zh_CN', 4],
  ['ko', 2],
  ['ar', 2],
  ['he', 1],
  ['fa', 1],
];
const FAMILY_FIRST = new Set(['ja', 'zh_CN', 'ko', 'vi']);

interface Lists {
  readonly locale: string;
  readonly first: string[];
  readonly last: string[];
}

/** `count` names in all (with repeats: Zipf-like, the top one `topShare` of them), from `seed`. */
export function realisticNames(count: number, seed = 11, topShare = 0.001): GeneratedKeys {
  const random = seededRandom(seed);
  const lists: Lists[] = [];
  const weights: number[] = [];
  for (const [locale, weight] of LOCALES) {
    const { first, last } = localeNames(locale);
    if (first.length === 0 || last.length === 0) continue;
    // Popularity order: a seeded shuffle, so the Zipf head is not alphabetical.
    shuffle(random, first);
    shuffle(random, last);
    lists.push({ locale, first, last });
    weights.push(weight);
  }
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const fresh = (): string => {
    let roll = random() * totalWeight;
    let i = 0;
    while (roll >= weights[i]!) roll -= weights[i++]!;
    return nameFrom(random, lists[i]!);
  };
  return zipfCounts(count, Math.max(1, Math.round(count * topShare)), 0.57, fresh);
}

function nameFrom(random: Random, lists: Lists): string {
  const first = pickZipf(random, lists.first, 0.8);
  const last = random() < 0.1 ? pick(random, lists.last) : pickZipf(random, lists.last, 0.7);
  if (FAMILY_FIRST.has(lists.locale)) return lists.locale === 'vi' ? `${last} ${first}` : `${last}${first}`;
  return `${first} ${last}`;
}
