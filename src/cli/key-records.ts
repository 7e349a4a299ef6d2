import { isAscii } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { ndjsonField, tsvColumn, type Extracted } from './key-extractors';
import type { ReadKeysOptions } from './read-keys';

/* How a key file's bytes become the records `readKeys` (read-keys.ts) turns into keys. */

/** A gzip file's text; progress counts the bytes read from disk, so it still ends at 100 %. */
export function gunzipped(path: string, progress: (bytes: number) => void): NodeJS.ReadableStream {
  const file = path === '-' ? process.stdin : createReadStream(path, { highWaterMark: 1 << 20 });
  file.on('data', (chunk: Buffer) => progress(chunk.length));
  return file.pipe(createGunzip());
}

/**
 * The one-key-per-line fast path: blocks of whole lines, decoded and normalized in one call each. The
 * keys are the same: a newline is a starter that NFKD never decomposes or reorders around, and it ends
 * the context of lower-casing (final sigma) as the end of a string does.
 */
export async function readLineBlocks(
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

export type LineExtractor = (line: string, first: boolean) => Extracted | undefined;

/** The per-line key function of lines, tsv and ndjson; an undefined result (a header) is dropped. */
export function lineExtractor(options: ReadKeysOptions): LineExtractor {
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

export async function readLines(
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
export async function readCsv(
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
