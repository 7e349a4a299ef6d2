import { isAscii } from 'node:buffer';
import { createReadStream } from 'node:fs';
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

/** The per-line key function of tsv and ndjson (lines: readLineBlocks); a header gives undefined, dropped. */
export function lineExtractor(options: ReadKeysOptions): LineExtractor {
  if (options.format === 'ndjson') {
    const field = options.field;
    if (!field) throw new Error('--format ndjson needs --field NAME');
    return (line) => ndjsonField(line, field);
  }
  let column = options.column ?? 0;
  return (line, first) => {
    if (first && hasHeader(options)) {
      column = headerColumn(line.split('\t'), options) ?? column;
      return undefined;
    }
    return line === '' ? { skip: 'blank line' } : tsvColumn(line, column);
  };
}

/** Lines may end in \r\n; a BOM may open the file. */
export async function readLines(
  input: NodeJS.ReadableStream,
  extract: LineExtractor,
  add: (extracted: Extracted) => void,
  progress: (bytes: number) => void,
): Promise<void> {
  await readLineBlocks(input, progress, (text, _ascii, first) => {
    const lines = text.split('\n');
    if (text.endsWith('\n')) lines.pop();
    for (const raw of lines) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const extracted = extract(first ? line.replace(/^\ufeff/, '') : line, first);
      first = false;
      if (extracted !== undefined) add(extracted);
    }
  });
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
    if (first && hasHeader(options)) column = headerColumn(record, options) ?? column;
    else add(column < record.length ? record[column]! : { skip: 'missing column' });
    first = false;
  }
}

/** Whether the first tsv/csv record is a header: --field names a column of it, --header skips it. */
function hasHeader(options: ReadKeysOptions): boolean {
  return options.field !== undefined || options.header === true;
}

/** The column --field names in the header row (undefined without --field). */
function headerColumn(header: readonly string[], { field }: ReadKeysOptions): number | undefined {
  if (field === undefined) return undefined;
  const column = header.indexOf(field);
  if (column < 0) throw new Error(`no column named ${JSON.stringify(field)} in the header: ${header.join(', ')}`);
  return column;
}
