import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

/**
 * The data files of one DynamoDB S3 export (DynamoDB JSON, one item per line) in the folder it was
 * copied to or any above, sorted by name, so every run reads them in the same order.
 */
export function exportDataFiles(folder: string): string[] {
  if (!statSync(folder).isDirectory()) throw new Error(`${folder} is not a folder: give the folder of the export`);
  const files = (readdirSync(folder, { recursive: true }) as string[])
    .map((entry) => join(folder, entry))
    .filter((path) => path.endsWith('.json.gz') && basename(dirname(path)) === 'data')
    .sort();
  if (files.length === 0) {
    throw new Error(`no DynamoDB export under ${folder}: expected AWSDynamoDB/<export id>/data/*.json.gz`);
  }
  const exports = new Set(files.map((path) => dirname(dirname(path))));
  if (exports.size > 1) {
    const found = [...exports].map((path) => relative(folder, path) || '.').join(', ');
    throw new Error(`${folder} holds ${exports.size} exports (${found}): give the folder of one`);
  }
  return files;
}
