import { createHash } from 'node:crypto';
import { canonicalText } from './values';

/**
 * An item's strong ETag: a hash of its canonical form (see `canonicalText`), so two items
 * DynamoDB holds equal have one ETag whatever the order of their keys or set elements.
 * shardline stores it in the item with every write; a conditional write compares the
 * stored one inside DynamoDB.
 */
export function itemEtag(item: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalText(item)).digest('base64url').slice(0, 22);
}

/** The header form of an ETag (quoted). */
export function etagHeader(etag: string): string {
  return `"${etag}"`;
}

/**
 * An `If-Match` / `If-None-Match` header: `*`, or the strong ETags it lists (weak ones,
 * `W/"…"`, never match a strong comparison and are dropped). Undefined when absent.
 */
export function parseEtagList(header: string | undefined): '*' | string[] | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return '*';
  const tags: string[] = [];
  for (const match of header.matchAll(/(W\/)?"([^"]*)"/g)) if (!match[1]) tags.push(match[2] ?? '');
  return tags;
}
