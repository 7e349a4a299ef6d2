import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export type OracleFilter =
  | { kind: 'all' }
  | { kind: 'key'; key: string }
  | { kind: 'prefix'; prefix: string }
  | { kind: 'between'; from?: string; to?: string };

export interface OracleAnswer {
  normalized: string[];
  range: number[];
  hash: number[];
  /** Per filter: matching title indexes, ascending by normalized value (ties in any order). */
  filters: number[][];
}

/**
 * Asks Python — the seed's normalize, bisect and sha256, and Python's code point
 * string order — what shardline must answer. Shares no code with shardline.
 */
export function askOracle(
  boundaries: string[],
  shards: number,
  titles: string[],
  filters: OracleFilter[],
): OracleAnswer {
  const output = execFileSync('python3', [resolve(import.meta.dirname, 'oracle.py')], {
    input: JSON.stringify({ boundaries, shards, titles, filters }),
    maxBuffer: 256 * 1024 * 1024,
    encoding: 'utf8',
  });
  return JSON.parse(output) as OracleAnswer;
}
