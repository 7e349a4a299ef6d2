/**
 * Turning one input record into its key, per input format. Pure, so the reader
 * stays a loop over lines and these stay testable on their own.
 */
export type InputFormat = 'lines' | 'tsv' | 'csv' | 'ndjson' | 'dynamodb-export';
export const INPUT_FORMATS: readonly InputFormat[] = ['lines', 'tsv', 'csv', 'ndjson', 'dynamodb-export'];

/** Why a record gave no key. */
export type SkipReason = 'blank line' | 'missing column' | 'missing field' | 'not a string' | 'bad json';

export type Extracted = string | { skip: SkipReason };

/** The format a file name suggests, or undefined. */
export function formatFromName(path: string): InputFormat | undefined {
  const lower = path.toLowerCase().replace(/\.gz$/, '');
  if (lower.endsWith('.tsv') || lower.endsWith('.tab')) return 'tsv';
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'ndjson';
  return undefined;
}

/** Column `column` (0-based) of a tab-separated line, no quoting (as the seed reads MusicBrainz dumps). */
export function tsvColumn(line: string, column: number): Extracted {
  let start = 0;
  for (let c = 0; c < column; c++) {
    const tab = line.indexOf('\t', start);
    if (tab < 0) return { skip: 'missing column' };
    start = tab + 1;
  }
  const end = line.indexOf('\t', start);
  return end < 0 ? line.slice(start) : line.slice(start, end);
}

/** A string field of one JSON object per line; `field` may be a dotted path (`album.title`). */
export function ndjsonField(line: string, field: string): Extracted {
  const parsed = jsonLine(line);
  if ('skip' in parsed) return parsed;
  let node = parsed.value;
  for (const part of field.split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) return { skip: 'missing field' };
    node = (node as Record<string, unknown>)[part];
  }
  if (typeof node === 'string') return node;
  // Numbers order as strings in a string index: keep them, as their text.
  if (typeof node === 'number' || typeof node === 'bigint') return String(node);
  return { skip: 'not a string' };
}

/**
 * A string or number attribute of one line of a DynamoDB S3 export in DynamoDB JSON
 * (`{"Item":{"title":{"S":"…"}}}`); numbers are read as their text.
 */
export function dynamodbExportField(line: string, field: string): Extracted {
  const parsed = jsonLine(line);
  if ('skip' in parsed) return parsed;
  const item = (parsed.value as { Item?: unknown } | null)?.Item;
  if (item === null || typeof item !== 'object' || !Object.hasOwn(item, field)) return { skip: 'missing field' };
  const value = (item as Record<string, unknown>)[field] as { S?: unknown; N?: unknown } | null;
  if (typeof value?.S === 'string') return value.S;
  if (typeof value?.N === 'string') return value.N;
  return { skip: 'not a string' };
}

/** One JSON value per line (ndjson, DynamoDB exports): the value, or why the line has none. */
function jsonLine(line: string): { value: unknown } | { skip: SkipReason } {
  if (line.trim() === '') return { skip: 'blank line' };
  try {
    return { value: JSON.parse(line) };
  } catch {
    return { skip: 'bad json' };
  }
}
