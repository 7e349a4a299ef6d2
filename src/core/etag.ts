import { createHash } from 'node:crypto';
import { canonicalText } from './values';

/** A hash of the canonical form: items DynamoDB holds equal have one ETag (stored with every write). */
export function itemEtag(item: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalText(item)).digest('base64url').slice(0, 22);
}

export function etagHeader(etag: string): string {
  return `"${etag}"`;
}

/**
 * `strong` (If-Match, RFC 9110 §13.1.1): weak ETags, `W/"…"`, never match and are dropped; `weak`
 * (If-None-Match, §13.1.2): `W/"x"` matches `"x"`, so its opaque part is kept.
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
