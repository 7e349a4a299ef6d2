/* One input record's key, per input format: pure, so the reader stays a loop over lines. */
export type InputFormat = 'lines' | 'tsv' | 'csv' | 'ndjson' | 'dynamodb-export';
export const INPUT_FORMATS: readonly InputFormat[] = ['lines', 'tsv', 'csv', 'ndjson', 'dynamodb-export'];

export type SkipReason = 'blank line' | 'missing column' | 'missing field' | 'not a string' | 'bad json';

export type Extracted = string | { skip: SkipReason };

export function formatFromName(path: string): InputFormat | undefined {
  const extension = /\.(tsv|tab|csv|ndjson|jsonl)(\.gz)?$/i.exec(path)?.[1]?.toLowerCase();
  return extension === 'tab' ? 'tsv' : extension === 'jsonl' ? 'ndjson' : (extension as InputFormat | undefined);
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

/** A string or number (as its text) attribute of a DynamoDB S3 export's line (`{"Item":{"title":{"S":"…"}}}`). */
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
