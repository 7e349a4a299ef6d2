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
 * An `If-Match` / `If-None-Match` header: `*`, or the ETags it lists. `strong` (If-Match, RFC 9110
 * §13.1.1): weak ones, `W/"…"`, never match and are dropped; `weak` (If-None-Match, §13.1.2):
 * `W/"x"` matches `"x"`, so its opaque part is kept. Undefined when absent.
 */
export function parseEtagList(
  header: string | undefined,
  comparison: 'strong' | 'weak' = 'strong',
): '*' | string[] | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return '*';
  const tags: string[] = [];
  for (const match of header.matchAll(/(W\/)?"([^"]*)"/g)) {
    if (!match[1] || comparison === 'weak') tags.push(match[2] ?? '');
  }
  return tags;
}
