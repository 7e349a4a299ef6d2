import { ExactNumber } from '../core/exact-number.js';
import { canonical } from './json.js';
import { type Answer, type Call, errorOf, ShardlineClientError } from './transport.js';

// A conditional write repeated after a dropped connection may meet its own first attempt (412, 404):
// the client reads the item and compares it with the change it asked for instead of reporting a failure.

/** The one-key objects of the API's typed values (docs/api.md, values). */
const MARKERS = new Set(['$set', '$binary', '$map']);

/** Equal as DynamoDB holds them: numbers by value (`1.50` = `1.5`), maps and `$set`s in any order. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (isNumeric(a) || isNumeric(b))
    return isNumeric(a) && isNumeric(b) && canonical(String(a)) === canonical(String(b));
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return a === b;
  const set = a.$set;
  if (markerOf(a) === '$set' && markerOf(b) === '$set' && Array.isArray(set) && Array.isArray(b.$set)) {
    // A set's elements are distinct: the same count, each found in the other, is the same set.
    const other = b.$set;
    return set.length === other.length && set.every((x) => other.some((y) => sameValue(x, y)));
  }
  const names = Object.keys(a);
  return (
    names.length === Object.keys(b).length &&
    names.every((name) => Object.hasOwn(b, name) && sameValue(a[name], b[name]))
  );
}

/** The item holds every change of a JSON merge patch (RFC 7396): `null` members absent, the rest merged or equal. */
export function holdsPatch(item: unknown, patch: unknown): boolean {
  if (!isRecord(patch) || markerOf(patch) !== undefined) return sameValue(item, patch);
  if (!isRecord(item) || markerOf(item) !== undefined) return false;
  return Object.entries(patch).every(([name, change]) =>
    change === null ? !Object.hasOwn(item, name) : Object.hasOwn(item, name) && holdsPatch(item[name], change),
  );
}

function isNumeric(value: unknown): value is number | bigint | ExactNumber {
  return typeof value === 'number' || typeof value === 'bigint' || value instanceof ExactNumber;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function markerOf(value: Record<string, unknown>): string | undefined {
  const names = Object.keys(value);
  return names.length === 1 && MARKERS.has(names[0]!) ? names[0] : undefined;
}

/** A repeat refused after a dropped connection, when the item does not show the change: neither success nor failure. */
export function outcomeUnknown(answer: Answer, call: Pick<Call, 'method' | 'path'>, why: string): ShardlineClientError {
  const refusal = errorOf(answer, call);
  const message =
    `${call.method} ${call.path}: the connection dropped, then the repeat was refused ` +
    `(${answer.status} ${refusal.code}) and ${why}: whether this call made its change is unknown`;
  const details = { ...refusal.details, refusal: { status: answer.status, code: refusal.code } };
  return new ShardlineClientError(undefined, 'outcome_unknown', message, details, { cause: refusal });
}
