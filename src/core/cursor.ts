import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ShardlineError } from './errors';
import { packHint, unpackHint, type ReadHint } from './read-hint';

/** A cursor is valid only for the listing that issued it (the page size may change between pages). */
export interface CursorScope {
  readonly collection: string;
  /** The listing's direction (`asc` or `desc`). */
  readonly direction: string;
  /** A canonical description of the filter, e.g. `prefix:abc`. */
  readonly filter: string;
}

/** 2: the payload names the key that signed it (`s`), so a cursor from another secret says so. */
const VERSION = 2;
const MAC_BYTES = 16;
const KEY_ID_BYTES = 6;

/** In the error's details: each asks the client for something else. */
export type CursorRejection = 'malformed' | 'foreign_secret' | 'old_version' | 'altered';

export interface CursorContent {
  readonly position: string;
  readonly hint?: ReadHint;
}

/**
 * The last returned item's index sort key and, for hash and random listings, a read hint, as
 * `base64url(JSON) "." base64url(HMAC-SHA256(secret, scope + payload))`: the MAC covers the scope without
 * carrying it. The payload names the signing key's fingerprint, so a cursor from another CURSOR_SECRET is
 * told apart from an altered one.
 */
export function encodeCursor(position: string, scope: CursorScope, secret: string, hint?: ReadHint): string {
  const content = { v: VERSION, s: keyId(secret), k: position, ...(hint && { h: packHint(hint) }) };
  const payload = Buffer.from(JSON.stringify(content), 'utf8').toString('base64url');
  return `${payload}.${mac(payload, scope, secret).toString('base64url')}`;
}

/** Throws `invalid_cursor` (with its `reason`) if the cursor was not issued for `scope`. */
export function decodeCursor(cursor: string, scope: CursorScope, secret: string): CursorContent {
  const dot = cursor.indexOf('.');
  if (dot <= 0) throw invalidCursor('malformed', 'it is malformed');
  const payload = cursor.slice(0, dot);
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('malformed', 'it is malformed');
  }
  const { v, s: signedBy, k: position, h } = (decoded ?? {}) as { v?: unknown; s?: unknown; k?: unknown; h?: unknown };
  // Read before the MAC is checked, so an edited payload may claim anything here: each answer only
  // chooses which message a refusal carries, never lets a cursor through.
  if (v !== VERSION) {
    throw invalidCursor('old_version', 'it was issued by another version of shardline; start the listing again');
  }
  if (signedBy !== keyId(secret)) {
    throw invalidCursor(
      'foreign_secret',
      'it was signed with another CURSOR_SECRET (the service restarted with a new secret, or another ' +
        'deployment issued it); start the listing again',
    );
  }
  // Compared as text: a non-canonical base64 spelling of the right MAC is refused too.
  const given = Buffer.from(cursor.slice(dot + 1), 'utf8');
  const expected = Buffer.from(mac(payload, scope, secret).toString('base64url'), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw invalidCursor('altered', 'it was altered, or issued for another collection, order or filter');
  }
  if (typeof position !== 'string') throw invalidCursor('malformed', 'it is malformed');
  // A hint that does not parse is dropped: it only ever sized reads.
  const hint = unpackHint(h);
  return hint ? { position, hint } : { position };
}

/** The last secret's fingerprint: a process signs with one secret, twice a page (decode and encode). */
let lastKeyId: { readonly secret: string; readonly id: string } | undefined;

/** Which secret signed a cursor, without revealing it. */
function keyId(secret: string): string {
  if (lastKeyId?.secret !== secret) {
    const digest = createHash('sha256').update('shardline cursor key id\0').update(secret, 'utf8').digest();
    lastKeyId = { secret, id: digest.subarray(0, KEY_ID_BYTES).toString('base64url') };
  }
  return lastKeyId.id;
}

function mac(payload: string, scope: CursorScope, secret: string): Buffer {
  const hmac = createHmac('sha256', secret);
  // Length-prefixed fields: no two different scopes can produce the same MAC input.
  for (const field of [scope.collection, scope.direction, scope.filter, payload]) {
    hmac.update(`${field.length}:`).update(field, 'utf8');
  }
  return hmac.digest().subarray(0, MAC_BYTES);
}

function invalidCursor(reason: CursorRejection, why: string): ShardlineError {
  return new ShardlineError('invalid_cursor', `cursor rejected: ${why}`, { reason });
}
