import { createReadStream, statSync } from 'node:fs';
import type { KeySink } from '../boundaries/key-arena';
import type { KeyCollector } from '../boundaries/key-collector';
import { normalizeKey } from '../boundaries/normalize-keys';
import { canIndexValue } from '../core/index-key';
import { normalize } from '../core/normalize';
import type { Options } from './boundaries-options';
import { exportDataFiles } from './dynamodb-export';
import { gunzipped, lineExtractor, readCsv, readLineBlocks, readLines } from './key-records';
import { dynamodbExportField, type Extracted } from './key-extractors';

export interface ReadKeysOptions
  extends Pick<Options, 'format' | 'normalization'>,
    Partial<Pick<Options, 'column' | 'field' | 'header'>> {
  /** A file path, or '-' for standard input. */
  readonly path: string;
  /** Called now and then with bytes read so far, keys counted and the file size (unknown on stdin). */
  readonly onProgress?: (bytes: number, keys: number, size: number | undefined) => void;
}

/**
 * Streams a key file into `sink` (the exact arena or a sketch), normalized, in one pass. Keys the
 * service would refuse are skipped and counted: U+0000 (the index sort key's separator) and unpaired
 * surrogates (no UTF-8 form). Blank lines are skipped in the one-key-per-line format; an empty field is ''.
 */
export async function readKeys(options: ReadKeysOptions, sink: KeyCollector) {
  const skipped = new Map<string, number>();
  // The first few raw keys, so a user sees which column was read.
  const samples: string[] = [];
  let keys = 0;
  let bytes = 0;
  let lastReport = 0;
  let size: number | undefined;
  let target: KeySink = sink;
  const skip = (reason: string, times = 1): void => {
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
      await readLines(
        gunzipped(file, progress),
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
  return { keys, skipped, samples };
}

/** The first few keys of a block of raw lines, for the user to see which keys were read. */
function takeSamples(raw: string, samples: string[]): void {
  if (samples.length >= 5) return;
  for (const line of raw.split('\n', 6)) {
    const key = (line.endsWith('\r') ? line.slice(0, -1) : line).replace(/^\ufeff/, '');
    if (key !== '' && samples.length < 5 && !key.includes('\0')) samples.push(key);
  }
}
