import { createReadStream, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import { normalizeKey } from '../boundaries/normalize-keys';
import { canIndexValue } from '../core/index-key';
import type { Normalization } from '../core/normalize';
import { ndjsonField, tsvColumn, type Extracted, type InputFormat, type SkipReason } from './key-extractors';

export interface ReadKeysOptions {
  /** A file path, or '-' for standard input. */
  readonly path: string;
  readonly format: InputFormat;
  /** 0-based column for tsv/csv. */
  readonly column?: number;
  /** Header name (tsv/csv, implies a header row) or JSON field (ndjson). */
  readonly field?: string;
  /** Skip a header row when locating by --column. */
  readonly header?: boolean;
  readonly normalization: Normalization;
  /** Called now and then with bytes read so far, keys counted and the file size (unknown on stdin). */
  readonly onProgress?: (bytes: number, keys: number, size: number | undefined) => void;
}

export interface ReadKeysResult {
  /** Normalized value → items. */
  readonly counts: Map<string, number>;
  /** Keys counted (sum of counts). */
  readonly keys: number;
  readonly bytes: number;
  /** File size when known (for progress). */
  readonly size: number | undefined;
  /** Records that gave no usable key, by reason. */
  readonly skipped: Map<string, number>;
  /** The first few raw keys, so a user sees which column was read. */
  readonly samples: string[];
}

/** Reasons a key read fine but cannot be stored in the index. */
type Unstorable = 'contains U+0000' | 'unpaired surrogate';

/**
 * Streams a key file and counts its normalized keys, holding only the distinct
 * values (5 M titles ≈ 3 M values). One pass, chunks of 1 MiB, no line is kept.
 *
 * Keys the service would refuse are skipped and counted: U+0000 (the index sort
 * key's separator) and unpaired surrogates (no UTF-8 form). Blank lines are
 * skipped in the one-key-per-line format; an empty field is the key ''.
 */
export async function readKeys(options: ReadKeysOptions): Promise<ReadKeysResult> {
  const counts = new Map<string, number>();
  const skipped = new Map<string, number>();
  const samples: string[] = [];
  let keys = 0;
  let bytes = 0;
  let lastReport = 0;
  const skip = (reason: SkipReason | Unstorable): void => {
    skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  };
  const add = (extracted: Extracted): void => {
    if (typeof extracted !== 'string') return void skip(extracted.skip);
    if (!canIndexValue(extracted)) return void skip('contains U+0000');
    if (!extracted.isWellFormed()) return void skip('unpaired surrogate');
    if (samples.length < 5) samples.push(extracted);
    const value = normalizeKey(extracted, options.normalization);
    counts.set(value, (counts.get(value) ?? 0) + 1);
    keys++;
  };
  if (/\.(bz2|xz|zst|zip)$/i.test(options.path)) {
    throw new Error(
      `${options.path} is compressed: decompress it first (only .gz is read directly), or pipe it in with --input -`,
    );
  }
  const size = options.path === '-' ? undefined : statSync(options.path).size;
  const file = options.path === '-' ? process.stdin : createReadStream(options.path, { highWaterMark: 1 << 20 });
  // Progress counts the bytes read from disk, so a .gz file still ends at 100 %.
  const input = /\.gz$/i.test(options.path) ? file.pipe(createGunzip()) : file;
  if (input !== file) file.on('data', (chunk: Buffer) => progress(chunk.length));
  const counted = input === file;
  const progress = (chunkBytes: number): void => {
    bytes += chunkBytes;
    if (options.onProgress && bytes - lastReport >= 1 << 22) {
      lastReport = bytes;
      options.onProgress(bytes, keys, size);
    }
  };

  const onChunk = counted ? progress : (): void => {};
  if (options.format === 'csv') await readCsv(input, options, add, onChunk);
  else await readLines(input, lineExtractor(options), add, onChunk);
  options.onProgress?.(bytes, keys, size);
  return { counts, keys, bytes, size, skipped, samples };
}

type LineExtractor = (line: string, first: boolean) => Extracted | undefined;

/** The per-line key function for lines/tsv/ndjson; undefined results (a header) are dropped. */
function lineExtractor(options: ReadKeysOptions): LineExtractor {
  if (options.format === 'lines') return (line) => (line === '' ? { skip: 'blank line' } : line);
  if (options.format === 'ndjson') {
    const field = options.field;
    if (!field) throw new Error('--format ndjson needs --field NAME');
    return (line) => ndjsonField(line, field);
  }
  // tsv
  let column = options.column;
  const field = options.field;
  return (line, first) => {
    if (first && field !== undefined) {
      column = line.split('\t').indexOf(field);
      if (column < 0)
        throw new Error(`no column named ${JSON.stringify(field)} in the header: ${line.split('\t').join(', ')}`);
      return undefined;
    }
    if (first && options.header) return undefined;
    if (line === '') return { skip: 'blank line' };
    return tsvColumn(line, column ?? 0);
  };
}

async function readLines(
  input: NodeJS.ReadableStream,
  extract: LineExtractor,
  add: (extracted: Extracted) => void,
  progress: (bytes: number) => void,
): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let first = true;
  const take = (raw: string): void => {
    // Lines may end in \r\n; a BOM may open the file.
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (first && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    const extracted = extract(line, first);
    first = false;
    if (extracted !== undefined) add(extracted);
  };
  for await (const chunk of input) {
    const buffer = chunk as Buffer;
    progress(buffer.length);
    const text = carry + decoder.write(buffer);
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      take(text.slice(start, end));
      start = end + 1;
    }
    carry = text.slice(start);
  }
  carry += decoder.end();
  if (carry !== '') take(carry);
}

/** RFC 4180 CSV (quotes, embedded newlines) through csv-parse; --field reads a header row. */
async function readCsv(
  input: NodeJS.ReadableStream,
  options: ReadKeysOptions,
  add: (extracted: Extracted) => void,
  progress: (bytes: number) => void,
): Promise<void> {
  input.on('data', (chunk: Buffer) => progress(chunk.length));
  const parser = input.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true }));
  let column = options.column ?? 0;
  let first = true;
  for await (const record of parser as AsyncIterable<string[]>) {
    if (first) {
      first = false;
      if (options.field !== undefined) {
        column = record.indexOf(options.field);
        if (column < 0)
          throw new Error(`no column named ${JSON.stringify(options.field)} in the header: ${record.join(', ')}`);
        continue;
      }
      if (options.header) continue;
    }
    add(column < record.length ? record[column]! : { skip: 'missing column' });
  }
}
