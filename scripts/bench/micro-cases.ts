import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeCursor, encodeCursor, type CursorScope } from '../../src/core/cursor';
import { indexSortKey } from '../../src/core/index-key';
import { normalize } from '../../src/core/normalize';
import { strategyFromConfig } from '../../src/core/strategies';
import { seededRandom } from '../../devtools/random';
import { mergeCases } from './merge-cases';
import { signingCases } from './signing-cases';
import { typedCases } from './typed-cases';
import { randomTitle } from '../../devtools/titles';

/** One micro-benchmark: `run(n)` does n operations of the hot path and returns something to keep it alive. */
export interface MicroCase {
  readonly name: string;
  readonly unit: string;
  /** Operations per run; a run should take tens of milliseconds. */
  readonly batch: number;
  /** The target in operations per second, if any. */
  readonly target?: number;
  /** The case this one is compared with (same run): the report prints this one's cost relative to it. */
  readonly baseline?: string;
  run(): unknown;
}

const BOUNDARIES = (
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../boundaries/albums.json'), 'utf8')) as {
    boundaries: string[];
  }
).boundaries;

export function microCases(): MicroCase[] {
  const random = seededRandom(7);
  const titles = Array.from({ length: 65_536 }, () => randomTitle(random));
  const range = strategyFromConfig({ kind: 'range', boundaries: BOUNDARIES });
  const hash = strategyFromConfig({ kind: 'hash', shards: 21 });
  const fixed = () => 0.5;

  // Through JSON, as the SDK hands them over: flat strings, not the ropes concatenation
  // builds (which would also teach compareKeys's optimized code the wrong string shape).
  const indexKeys = JSON.parse(
    JSON.stringify(
      titles.map((title, i) => indexSortKey(normalize(title, 'nfkd-lower'), [`artist#${i % 997}`, `album#${i}`])),
    ),
  ) as string[];
  const scope: CursorScope = { collection: 'albums-hash', direction: 'asc', filter: '["all"]' };
  const secret = 'micro-bench-secret';
  const cursors = indexKeys.slice(0, 1024).map((key) => encodeCursor(key, scope, secret));
  let i = 0;

  // The two routing loops are written out, not made by one helper: a shared loop would
  // see both strategies at one call site and time V8's polymorphic dispatch as well.
  return [
    {
      name: 'route a key, range (normalize + bisect, 21 boundaries)',
      unit: 'keys/s',
      batch: 200_000,
      target: 1_000_000,
      run() {
        let sum = 0;
        for (let n = 0; n < this.batch; n++)
          sum += range.shardForWrite(normalize(titles[i++ & 0xffff]!, 'nfkd-lower'), fixed);
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
        for (let n = 0; n < this.batch; n++)
          sum += hash.shardForWrite(normalize(titles[i++ & 0xffff]!, 'nfkd-lower'), fixed);
        return sum;
      },
    },
    ...mergeCases(indexKeys.slice(0, 4096), indexKeys),
    ...typedCases(),
    ...signingCases(),
    {
      name: 'cursor encode (HMAC-SHA256, base64url)',
      unit: 'ops/s',
      batch: 20_000,
      run() {
        let length = 0;
        for (let n = 0; n < this.batch; n++) length += encodeCursor(indexKeys[i++ & 0xffff]!, scope, secret).length;
        return length;
      },
    },
    {
      name: 'cursor decode (verify HMAC, parse)',
      unit: 'ops/s',
      batch: 20_000,
      run() {
        let length = 0;
        for (let n = 0; n < this.batch; n++)
          length += decodeCursor(cursors[i++ & 0x3ff]!, scope, secret).position.length;
        return length;
      },
    },
  ];
}
