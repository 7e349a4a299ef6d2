import { createHmac, timingSafeEqual } from 'node:crypto';
import { ShardlineError } from './errors';
import { packHint, unpackHint, type ReadHint } from './read-hint';

/**
 * What a cursor belongs to. A cursor is valid only for the listing that issued it:
 * the same collection, order and filter (the page size may change between pages).
 */
export interface CursorScope {
  readonly collection: string;
  readonly order: string;
  /** A canonical description of the filter, e.g. `prefix:abc`. */
  readonly filter: string;
}

const VERSION = 1;
const MAC_BYTES = 16;

/** Where a listing resumes, and what its last page read past that point (see ReadHint). */
export interface CursorContent {
  readonly position: string;
  readonly hint?: ReadHint;
}

/**
 * A cursor is the index sort key of the last returned item — one exact position —
 * and, for hash and random listings, a read hint, as
 * `base64url(JSON) "." base64url(HMAC-SHA256(secret, scope + payload))`. The MAC
 * covers the scope without carrying it, so a tampered cursor, or one from another
 * collection, order or filter, is rejected rather than resuming somewhere else.
 */
export function encodeCursor(position: string, scope: CursorScope, secret: string, hint?: ReadHint): string {
  const content = { v: VERSION, k: position, ...(hint && { h: packHint(hint) }) };
  const payload = Buffer.from(JSON.stringify(content), 'utf8').toString('base64url');
  return `${payload}.${mac(payload, scope, secret).toString('base64url')}`;
}

/** What a cursor holds; throws `invalid_cursor` if it was not issued for `scope`. */
export function decodeCursor(cursor: string, scope: CursorScope, secret: string): CursorContent {
  const dot = cursor.indexOf('.');
  if (dot <= 0) throw invalidCursor('it is malformed');
  const payload = cursor.slice(0, dot);
  // Compared as text: a non-canonical base64 spelling of the right MAC is refused too.
  const given = Buffer.from(cursor.slice(dot + 1), 'utf8');
  const expected = Buffer.from(mac(payload, scope, secret).toString('base64url'), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw invalidCursor('it was altered, or issued for another collection, order or filter');
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('it is malformed');
  }
  const { v, k: position, h } = (decoded ?? {}) as { v?: unknown; k?: unknown; h?: unknown };
  if (v !== VERSION || typeof position !== 'string') throw invalidCursor('it is from an unsupported version');
  // A hint that does not parse is dropped: it only ever sized reads.
  const hint = unpackHint(h);
  return hint ? { position, hint } : { position };
}

function mac(payload: string, scope: CursorScope, secret: string): Buffer {
  const hmac = createHmac('sha256', secret);
  // Length-prefixed fields: no two different scopes can produce the same MAC input.
  for (const field of [scope.collection, scope.order, scope.filter, payload]) {
    hmac.update(`${field.length}:`).update(field, 'utf8');
  }
  return hmac.digest().subarray(0, MAC_BYTES);
}

function invalidCursor(why: string): ShardlineError {
  return new ShardlineError('invalid_cursor', `cursor rejected: ${why}`);
}
