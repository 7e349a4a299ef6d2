import { pick } from '../../devtools/random';

const ARTISTS = [
  'Solar Fields',
  'International Pony',
  'Dday One',
  'Boards of Canada',
  'Ólafur Arnalds',
  'Кино',
  '坂本龍一',
  'Nils Frahm',
];
const GENRES = ['ambient', 'electronic', 'rock', 'jazz', 'folk', 'hip hop', 'classical', 'pop'];
const WORDS = 'studio recorded released reissue vinyl tape mixed mastered limited pressing sleeve notes'.split(' ');

/**
 * The seed's items: up to 500 bytes with the attributes a listing projects. The
 * primary key is unique per item (`album#<n>`); the free-text `notes` pads every
 * item to about `targetBytes` as stored (index keys included).
 */
export function albumItem(random: () => number, n: number, title: string, targetBytes = 500): Record<string, unknown> {
  const item: Record<string, unknown> = {
    pk: `artist#${String(n % 997).padStart(4, '0')}`,
    sk: `album#${String(n).padStart(6, '0')}`,
    title,
    artist: pick(random, ARTISTS),
    year: 1960 + Math.floor(random() * 66),
    genre: pick(random, GENRES),
    tracks: 4 + Math.floor(random() * 16),
  };
  // About 110 bytes go to shardline's index keys and the attribute names; the rest is notes.
  const used = Buffer.byteLength(JSON.stringify(item)) + 110;
  let notes = '';
  while (notes.length < targetBytes - used) notes += pick(random, WORDS) + ' ';
  item.notes = notes.slice(0, Math.max(0, targetBytes - used));
  return item;
}
