import { createHmac, timingSafeEqual } from 'node:crypto';
import { ShardlineError } from './errors';

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

/**
 * A cursor is the index sort key of the last returned item — one exact position —
 * as `base64url(JSON) "." base64url(HMAC-SHA256(secret, scope + payload))`. The MAC
 * covers the scope without carrying it, so a tampered cursor, or one from another
 * collection, order or filter, is rejected rather than resuming somewhere else.
 */
export function encodeCursor(position: string, scope: CursorScope, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ v: VERSION, k: position }), 'utf8').toString('base64url');
  return `${payload}.${mac(payload, scope, secret).toString('base64url')}`;
}

/** The position inside a cursor; throws `invalid_cursor` if it was not issued for `scope`. */
export function decodeCursor(cursor: string, scope: CursorScope, secret: string): string {
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
  const position = (decoded as { v?: unknown; k?: unknown } | null)?.k;
  if ((decoded as { v?: unknown }).v !== VERSION || typeof position !== 'string') {
    throw invalidCursor('it is from an unsupported version');
  }
  return position;
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
