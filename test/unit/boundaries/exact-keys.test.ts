import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { KeyArena } from '../../../src/boundaries/key-arena';
import { KeyCollector } from '../../../src/boundaries/key-collector';
import { keyCountsOf, type KeyCounts } from '../../../src/boundaries/key-counts';
import { normalizeKey } from '../../../src/boundaries/normalize-keys';
import { compareKeys } from '../../../src/core/collation';
import { readKeys } from '../../../src/cli/read-keys';
import type { Normalization } from '../../../src/core/normalize';

/**
 * The exact count's fast path (whole blocks normalized at once, keys kept as bytes,
 * sorted by bytes, duplicates counted by the sort) against the plain one: every
 * line normalized on its own, counted in a Map, sorted with compareKeys.
 */
const dir = mkdtempSync(join(tmpdir(), 'shardline-exact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Characters where UTF-16 order, case mapping or NFKD are tricky. */
const TRICKY = [
  'a',
  'B',
  'z',
  'Z',
  ' ',
  '-',
  '@',
  '\r',
  '\0',
  '\ufeff',
  'Σ',
  'ς',
  'σ',
  'İ',
  'ß',
  'é',
  'e\u0301',
  '\u0327',
  '\u0301\u0327',
  'ﬁ',
  'Ａ',
  '한',
  '\ue000',
  '\uf900',
  '\ufb01',
  '\uff21',
  '\ufffd',
  '\uffff',
  '😀',
  '𝐀',
  '\u{10ffff}',
  '\u{1f1fa}',
  'Ω',
  'ö',
  'Ⅻ',
  '①',
  'ｶ',
  'ｯ',
];
const line = fc.array(fc.constantFrom(...TRICKY), { maxLength: 8 }).map((parts) => parts.join(''));
const lines = fc.array(line, { maxLength: 60 });

/** The plain path, as the reader treats each line of a file. */
function slowCounts(text: string, normalization: Normalization): KeyCounts<readonly string[]> {
  const keys: string[] = [];
  text.split('\n').forEach((raw, i, all) => {
    if (i === all.length - 1 && raw === '') return;
    let key = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (i === 0 && key.charCodeAt(0) === 0xfeff) key = key.slice(1);
    if (key === '' || key.includes('\0')) return;
    keys.push(normalizeKey(key, normalization));
  });
  return keyCountsOf(keys);
}

async function fastCounts(text: string, normalization: Normalization): Promise<KeyCounts> {
  const path = join(dir, 'keys.txt');
  writeFileSync(path, text);
  const collector = new KeyCollector({ shards: 2, exactLimitBytes: 2 ** 30, fallbackSketchBytes: 1 << 24 });
  await readKeys({ path, format: 'lines', normalization }, collector);
  expect(collector.sketched).toBe(false);
  return collector.finish().keys;
}

function expectSame(fast: KeyCounts, slow: KeyCounts<readonly string[]>): void {
  expect(Array.from({ length: fast.values.length }, (_, i) => fast.values.at(i))).toEqual(slow.values);
  expect(Array.from(fast.counts)).toEqual(Array.from(slow.counts));
  expect(fast.total).toBe(slow.total);
}

describe('exact key counts: the fast path equals the plain one', () => {
  it('on lines of case-, NFKD- and order-tricky characters (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        lines,
        fc.boolean(),
        fc.constantFrom<Normalization>('nfkd-lower', 'none'),
        async (ls, end, n) => {
          const text = ls.join('\n') + (end ? '\n' : '');
          expectSame(await fastCounts(text, n), slowCounts(text, n));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('across 1 MiB read chunks that split multi-byte characters, with repeats', async () => {
    const random = fc.sample(lines, { numRuns: 40_000, seed: 15 }).flat();
    const text = [...random, ...random.slice(0, 20_000)].join('\n');
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * (1 << 20));
    expectSame(await fastCounts(text, 'nfkd-lower'), slowCounts(text, 'nfkd-lower'));
  });

  it('sorts by UTF-8 bytes: U+E000–U+FFFF below astral characters, prefixes first (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          line.filter((s) => !s.includes('\0')),
          { maxLength: 200 },
        ),
        (keys) => {
          const arena = new KeyArena();
          for (const key of keys) arena.add(key);
          expectSame(arena.sorted(), keyCountsOf(keys));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('sorts long shared prefixes and many duplicates (insertion sort and the multikey partitions)', () => {
    const keys: string[] = [];
    for (let i = 0; i < 20_000; i++)
      keys.push(`${'@scope/'.repeat(1 + (i % 5))}${(i * 7919) % 3001}${i % 3 ? '\ue000' : '😀'}`);
    const arena = new KeyArena();
    for (const key of keys) arena.add(key);
    expectSame(arena.sorted(), keyCountsOf(keys));
  });

  it('merges a file of a few ascending runs (nearly sorted input) into the same order (property)', () => {
    const run = fc
      .array(
        line.filter((s) => !s.includes('\0')),
        { minLength: 64, maxLength: 300 },
      )
      .map((keys) => keys.sort(compareKeys));
    fc.assert(
      fc.property(fc.array(run, { minLength: 1, maxLength: 8 }), (runs) => {
        const keys = runs.flat();
        const arena = new KeyArena();
        for (const key of keys) arena.add(key);
        expectSame(arena.sorted(), keyCountsOf(keys));
      }),
      { numRuns: 200 },
    );
  });
});
