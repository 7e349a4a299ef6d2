import { isAscii } from 'node:buffer';
import { createReadStream, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import type { KeySink } from '../boundaries/key-arena';
import type { KeyParts } from '../boundaries/key-collector';
import { normalizeKey } from '../boundaries/normalize-keys';
import { canIndexValue } from '../core/index-key';
import { normalize, type Normalization } from '../core/normalize';
import { exportDataFiles } from './dynamodb-export';
import {
  dynamodbExportField,
  ndjsonField,
  tsvColumn,
  type Extracted,
  type InputFormat,
  type SkipReason,
} from './key-extractors';

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
  /** Keys given to the sink. */
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
 * Streams a key file into `sink` (the exact arena or a sketch), normalized. One
 * pass, chunks of 1 MiB.
 *
 * Keys the service would refuse are skipped and counted: U+0000 (the index sort
 * key's separator) and unpaired surrogates (no UTF-8 form). Blank lines are
 * skipped in the one-key-per-line format; an empty field is the key ''.
 */
export async function readKeys(options: ReadKeysOptions, sink: KeyParts): Promise<ReadKeysResult> {
  const skipped = new Map<string, number>();
  const samples: string[] = [];
  let keys = 0;
  let bytes = 0;
  let lastReport = 0;
  let size: number | undefined;
  let target: KeySink = sink;
  const skip = (reason: SkipReason | Unstorable, times = 1): void => {
    if (times > 0) skipped.set(reason, (skipped.get(reason) ?? 0) + times);
  };
  const add = (extracted: Extracted): void => {
    if (typeof extracted !== 'string') return void skip(extracted.skip);
    if (!canIndexValue(extracted)) return void skip('contains U+0000');
    if (!extracted.isWellFormed()) return void skip('unpaired surrogate');
    if (samples.length < 5) samples.push(extracted);
    target.add(normalizeKey(extracted, options.normalization));
    keys++;
  };
  const progress = (chunkBytes: number): void => {
    bytes += chunkBytes;
    if (options.onProgress && bytes - lastReport >= 1 << 22) {
      lastReport = bytes;
      options.onProgress(bytes, keys, size);
    }
  };
  if (/\.(bz2|xz|zst|zip)$/i.test(options.path)) {
    throw new Error(
      `${options.path} is compressed: decompress it first (only .gz is read directly), or pipe it in with --input -`,
    );
  }

  if (options.format === 'dynamodb-export') {
    const field = options.field;
    if (field === undefined) throw new Error('--format dynamodb-export needs --field NAME');
    const files = exportDataFiles(options.path);
    size = files.reduce((sum, file) => sum + statSync(file).size, 0);
    for (const file of files) {
      // Each file on its own: when sketching, its own sketch, merged in after it.
      target = sink.beginPart();
      const input = gunzipped(file, progress);
      await readLines(
        input,
        (line) => dynamodbExportField(line, field),
        add,
        () => {},
      );
      sink.endPart(target);
    }
  } else {
    size = options.path === '-' ? undefined : statSync(options.path).size;
    const gzip = /\.gz$/i.test(options.path);
    const input = gzip
      ? gunzipped(options.path, progress)
      : options.path === '-'
        ? process.stdin
        : createReadStream(options.path, { highWaterMark: 1 << 20 });
    const onChunk = gzip ? (): void => {} : progress;
    if (options.format === 'csv') await readCsv(input, options, add, onChunk);
    else if (options.format !== 'lines') await readLines(input, lineExtractor(options), add, onChunk);
    else {
      await readLineBlocks(input, onChunk, (raw, ascii, first) => {
        takeSamples(raw, samples);
        const text = options.normalization === 'none' ? raw : ascii ? raw.toLowerCase() : normalize(raw, 'nfkd-lower');
        const { added, blank, nul } = sink.addLines(text, ascii, first);
        keys += added;
        skip('blank line', blank);
        skip('contains U+0000', nul);
      });
    }
  }
  options.onProgress?.(bytes, keys, size);
  return { keys, bytes, size, skipped, samples };
}

/** A gzip file's text; progress counts the bytes read from disk, so it still ends at 100 %. */
function gunzipped(path: string, progress: (bytes: number) => void): NodeJS.ReadableStream {
  const file = path === '-' ? process.stdin : createReadStream(path, { highWaterMark: 1 << 20 });
  file.on('data', (chunk: Buffer) => progress(chunk.length));
  return file.pipe(createGunzip());
}

/** The first few keys of a block of raw lines, for the user to see which keys were read. */
function takeSamples(raw: string, samples: string[]): void {
  if (samples.length >= 5) return;
  for (const line of raw.split('\n', 6)) {
    const key = (line.endsWith('\r') ? line.slice(0, -1) : line).replace(/^\ufeff/, '');
    if (key !== '' && samples.length < 5 && !key.includes('\0')) samples.push(key);
  }
}

/**
 * The one-key-per-line fast path: whole blocks of complete lines, decoded and
 * normalized in one call each instead of one per line. That gives the same keys:
 * a newline is a starter that NFKD never decomposes or reorders around, and it
 * ends the context of lower-casing (final sigma) as the end of a string does.
 */
async function readLineBlocks(
  input: NodeJS.ReadableStream,
  progress: (bytes: number) => void,
  block: (text: string, ascii: boolean, first: boolean) => void,
): Promise<void> {
  let carry: Buffer | undefined;
  let first = true;
  const take = (bytes: Buffer): void => {
    const ascii = isAscii(bytes);
    block(ascii ? bytes.toString('latin1') : bytes.toString('utf8'), ascii, first);
    first = false;
  };
  for await (const chunk of input) {
    progress((chunk as Buffer).length);
    const buffer = carry ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    const last = buffer.lastIndexOf(10);
    if (last < 0) {
      carry = buffer;
      continue;
    }
    take(buffer.subarray(0, last + 1));
    carry = last + 1 < buffer.length ? buffer.subarray(last + 1) : undefined;
  }
  if (carry) take(carry);
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
  // Loaded only for CSV input, so the other formats start faster; before 'data' starts the flow.
  const { parse } = await import('csv-parse');
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
