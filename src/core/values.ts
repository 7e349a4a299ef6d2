import { Buffer } from 'node:buffer';
import { compareKeys } from './collation';
import { ShardlineError } from './errors';
import { decimalText, ExactNumber, parseDecimal } from './exact-number';

/**
 * Attribute values in core: a string, a boolean, null, an `ExactNumber` (never a double), a `Uint8Array` (B),
 * a `ValueSet` (SS, NS, BS), a list or a map of those. The wire spells binary, sets and maps that would read as
 * them as one-key objects (`$binary`, `$set`, `$map`: docs/api.md), so PUT of what GET returned stores it again.
 */

export type SetKind = 'S' | 'N' | 'B';
export type SetElement = string | ExactNumber | Uint8Array;

/** Non-empty, one element type, no duplicates (elements in the order given or read). */
export class ValueSet {
  constructor(
    readonly kind: SetKind,
    readonly elements: readonly SetElement[],
  ) {}
}

export const BINARY_MARKER = '$binary';
export const SET_MARKER = '$set';
export const MAP_MARKER = '$map';
const MARKERS = new Set([BINARY_MARKER, SET_MARKER, MAP_MARKER]);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The marker of a one-key object whose key is a marker: stops at a second key, as items hold many. */
export function markerOf(value: object): string | undefined {
  let only: string | undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (only !== undefined) return undefined;
    only = key;
  }
  return only !== undefined && MARKERS.has(only) ? only : undefined;
}

/** A map, not a number, binary or set. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof ExactNumber) &&
    !(value instanceof Uint8Array) &&
    !(value instanceof ValueSet)
  );
}

/** `where` names the attribute in the 400 a malformed marker gets (`tags`, `meta.cover`). */
export function fromWire(value: unknown, where: string): unknown {
  if (Array.isArray(value)) return value.map((element, i) => fromWire(element, `${where}[${i}]`));
  if (!isPlainObject(value)) return value;
  const marker = markerOf(value);
  if (marker === BINARY_MARKER) return binaryFromWire(value[BINARY_MARKER], where);
  if (marker === SET_MARKER) return setFromWire(value[SET_MARKER], where);
  const map = marker === MAP_MARKER ? value[MAP_MARKER] : value;
  if (!isPlainObject(map)) throw badValue(where, `"${MAP_MARKER}" must hold an object`);
  return mapRecord(map, (element, name) => fromWire(element, `${where}.${name}`));
}

/** Numbers stay `ExactNumber` for the serializer. */
export function toWire(value: unknown): unknown {
  if (value instanceof Uint8Array) return { [BINARY_MARKER]: Buffer.from(value).toString('base64') };
  if (value instanceof ValueSet) return { [SET_MARKER]: value.elements.map(toWire) };
  if (Array.isArray(value)) return value.map(toWire);
  if (!isPlainObject(value)) return value;
  const out = mapRecord(value, toWire);
  return markerOf(out) === undefined ? out : { [MAP_MARKER]: out };
}

/** The item itself is never a marker, its values may be. */
export function itemToWire(item: Record<string, unknown>): Record<string, unknown> {
  return mapRecord(item, toWire);
}

export function itemFromWire(item: Record<string, unknown>): Record<string, unknown> {
  return mapRecord(item, fromWire);
}

/** Each member converted, into a record without a prototype (`__proto__` kept as a member). */
function mapRecord(
  record: Record<string, unknown>,
  convert: (value: unknown, name: string) => unknown,
): Record<string, unknown> {
  const out = emptyRecord();
  for (const [name, value] of Object.entries(record)) setOwn(out, name, convert(value, name));
  return out;
}

function binaryFromWire(text: unknown, where: string): Uint8Array {
  if (typeof text !== 'string' || !BASE64.test(text)) {
    throw badValue(where, `"${BINARY_MARKER}" must hold standard base64 (A-Z a-z 0-9 + /, = padding)`);
  }
  return new Uint8Array(Buffer.from(text, 'base64'));
}

function setFromWire(elements: unknown, where: string): ValueSet {
  if (!Array.isArray(elements) || elements.length === 0) {
    throw badValue(where, `"${SET_MARKER}" must hold a non-empty array (DynamoDB has no empty sets)`);
  }
  const converted = elements.map((element, i) => fromWire(element, `${where}[${i}]`));
  const kind = setKindOf(converted);
  if (!kind) throw badValue(where, 'a set holds only strings, only numbers, or only binary values');
  const distinct = new Set(converted.map(canonicalText));
  if (distinct.size < converted.length) throw badValue(where, 'a set holds each value once');
  return new ValueSet(kind, converted as SetElement[]);
}

function setKindOf(elements: readonly unknown[]): SetKind | undefined {
  if (elements.every((e) => typeof e === 'string')) return 'S';
  if (elements.every((e) => e instanceof ExactNumber)) return 'N';
  if (elements.every((e) => e instanceof Uint8Array)) return 'B';
  return undefined;
}

/** Equal exactly when DynamoDB holds two values equal (`1.50` = `1.5`, sets and maps in any order). */
export function canonicalText(value: unknown): string {
  if (value instanceof ExactNumber || typeof value === 'number') {
    const text = String(value);
    const decimal = parseDecimal(text);
    return `n${decimal ? decimalText(decimal) : text}`;
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined || typeof value === 'boolean') return String(value ?? null);
  if (value instanceof Uint8Array) return `b${Buffer.from(value).toString('base64')}`;
  if (value instanceof ValueSet)
    return `${value.kind}s(${value.elements.map(canonicalText).sort(compareKeys).join(',')})`;
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .map(([name, element]) => `${JSON.stringify(name)}:${canonicalText(element)}`)
    .sort(compareKeys);
  return `{${entries.join(',')}}`;
}

/** Assigns even a `__proto__` key as an own property, as JSON.parse does. */
export function setOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === PROTO) Object.defineProperty(target, name, { value, enumerable: true, writable: true });
  else target[name] = value;
}

/**
 * The one attribute name shardline refuses: the AWS SDK's marshalling builds maps by assignment, where it sets
 * a prototype, so the attribute would silently vanish. `constructor`, `toString` and the like are data.
 */
export const PROTO = '__proto__';

/** No name, however spelt, reads or writes anything but its own members. */
export function emptyRecord(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/** Where a JSON value holds the name `__proto__` (`items[3].meta`; `''` at the top), checked before validation. */
export function protoNameIn(value: unknown, where = ''): string | undefined {
  const array = Array.isArray(value);
  if (!array && !isPlainObject(value)) return undefined;
  if (Object.hasOwn(value, PROTO)) return where;
  for (const [name, element] of Object.entries(value)) {
    const found = protoNameIn(element, array ? `${where}[${name}]` : where ? `${where}.${name}` : name);
    if (found !== undefined) return found;
  }
  return undefined;
}

function badValue(where: string, why: string): ShardlineError {
  return new ShardlineError('invalid_item', `attribute "${where}": ${why}`);
}
