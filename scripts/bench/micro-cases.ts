import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { compareKeys } from '../../src/core/collation';
import { decodeCursor, encodeCursor, type CursorScope } from '../../src/core/cursor';
import { indexSortKey } from '../../src/core/index-key';
import { KWayMerge } from '../../src/core/merge';
import { normalize } from '../../src/core/normalize';
import { createStrategy } from '../../src/core/strategies';
import { seededRandom } from '../lib/random';
import { randomTitle } from './titles';

/** One micro-benchmark: `run(n)` does n operations of the hot path and returns something to keep it alive. */
export interface MicroCase {
  readonly name: string;
  readonly unit: string;
  /** Operations per run; a run should take tens of milliseconds. */
  readonly batch: number;
  /** The target in operations per second, if any. */
  readonly target?: number;
  run(): unknown;
}

const BOUNDARIES = (
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../boundaries/albums.json'), 'utf8')) as { boundaries: string[] }
).boundaries;

export function microCases(): MicroCase[] {
  const random = seededRandom(7);
  const titles = Array.from({ length: 65_536 }, () => randomTitle(random));
  const range = createStrategy({ kind: 'range', boundaries: BOUNDARIES });
  const hash = createStrategy({ kind: 'hash', shards: 21 });
  const fixed = () => 0.5;

  // 21 sorted shards of index keys as the merge sees them: records keyed by gsi1sk.
  // Through JSON, as the SDK hands them over: flat strings, not the ropes concatenation builds.
  const records = JSON.parse(
    JSON.stringify(titles.map((title, i) => ({ gsi1sk: indexSortKey(normalize(title, 'nfkd-lower'), [`artist#${i % 997}`, `album#${i}`]) }))),
  ) as { gsi1sk: string }[];
  const shards: { gsi1sk: string }[][] = Array.from({ length: 21 }, () => []);
  records.forEach((record, i) => shards[i % 21]!.push(record));
  for (const shard of shards) shard.sort((a, b) => compareKeys(a.gsi1sk, b.gsi1sk));
  // The same merge over the titles that are all ASCII (88% of them): V8 compares one-byte strings fastest.
  const ascii = records.filter((record) => /^[\x00-\x7f]*$/.test(record.gsi1sk));
  const asciiShards: { gsi1sk: string }[][] = Array.from({ length: 21 }, () => []);
  ascii.forEach((record, i) => asciiShards[i % 21]!.push(record));
  for (const shard of asciiShards) shard.sort((a, b) => compareKeys(a.gsi1sk, b.gsi1sk));
  const mergeAll = (parts: { gsi1sk: string }[][], total: number): number => {
    const merge = new KWayMerge<{ gsi1sk: string }>(21, (record) => record.gsi1sk, 'asc');
    for (let s = 0; s < 21; s++) merge.supply(s, parts[s]!.slice(), true);
    let count = 0;
    for (let step = merge.next(); step.kind === 'item'; step = merge.next()) count++;
    if (count !== total) throw new Error('merge lost items');
    return count;
  };

  const scope: CursorScope = { collection: 'albums-hash', order: 'asc', filter: '["all"]' };
  const secret = 'micro-bench-secret';
  const cursors = records.slice(0, 1024).map((record) => encodeCursor(record.gsi1sk, scope, secret));
  let i = 0;

  return [
    {
      name: 'route a key, range (normalize + bisect, 21 boundaries)',
      unit: 'keys/s',
      batch: 200_000,
      target: 1_000_000,
      run() {
        let sum = 0;
        for (let n = 0; n < this.batch; n++) sum += range.shardForWrite(normalize(titles[i++ & 0xffff]!, 'nfkd-lower'), fixed);
        return sum;
      },
    },
    {
      name: 'route a key, hash (normalize + sha256 mod 21)',
      unit: 'keys/s',
      batch: 100_000,
      target: 400_000,
      run() {
        let sum = 0;
        for (let n = 0; n < this.batch; n++) sum += hash.shardForWrite(normalize(titles[i++ & 0xffff]!, 'nfkd-lower'), fixed);
        return sum;
      },
    },
    {
      name: 'k-way merge, 21 shards, seed-shaped titles',
      unit: 'items/s',
      batch: records.length,
      target: 5_000_000,
      run: () => mergeAll(shards, records.length),
    },
    {
      name: 'k-way merge, 21 shards, ASCII titles only',
      unit: 'items/s',
      batch: ascii.length,
      target: 5_000_000,
      run: () => mergeAll(asciiShards, ascii.length),
    },
    {
      name: 'cursor encode (HMAC-SHA256, base64url)',
      unit: 'ops/s',
      batch: 20_000,
      run() {
        let length = 0;
        for (let n = 0; n < this.batch; n++) length += encodeCursor(records[i++ & 0xffff]!.gsi1sk, scope, secret).length;
        return length;
      },
    },
    {
      name: 'cursor decode (verify HMAC, parse)',
      unit: 'ops/s',
      batch: 20_000,
      run() {
        let length = 0;
        for (let n = 0; n < this.batch; n++) length += decodeCursor(cursors[i++ & 0x3ff]!, scope, secret).length;
        return length;
      },
    },
  ];
}
