import { internalError } from '../core/errors';
import { ExactNumber } from '../core/exact-number';

/**
 * JSON text with every `ExactNumber` written as its digits; otherwise what `JSON.stringify` writes. By hand: on every
 * listing page's path, a replacer or lossless-json's writer cost more CPU for the same text (docs/performance.md).
 */
export function jsonText(value: unknown): string {
  return write(value) ?? 'null';
}

/** An object written member by member as it is visited, never copied first (routes/public-item.ts). */
export abstract class JsonMembers {
  /** Calls `visit` for each member, in the order written; an undefined value is left out, as JSON.stringify does. */
  abstract visitMembers(visit: (name: string, value: unknown) => void): void;
}

/** What JSON.stringify escapes in a string: quotes, backslashes, controls, and any surrogate (lone ones). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must be escaped
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      // Most strings need no escape: quoting them directly skips a call into the native writer.
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (value instanceof ExactNumber) return value.text;
      if (Array.isArray(value)) return writeArray(value);
      if (value instanceof JsonMembers) return writeObject((visit) => value.visitMembers(visit));
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        return write((value as { toJSON(): unknown }).toJSON());
      }
      return writeObject((visit) => {
        for (const name of Object.keys(value)) visit(name, (value as Record<string, unknown>)[name]);
      });
    case 'bigint':
      // Values reach here as ExactNumber: a BigInt is a bug.
      throw internalError('a BigInt has no JSON form');
    default:
      return undefined;
  }
}

function writeArray(values: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < values.length; i++) out += `${i > 0 ? ',' : ''}${write(values[i]) ?? 'null'}`;
  return `${out}]`;
}

/** Members with an undefined value are left out, as JSON.stringify does. */
function writeObject(visitMembers: JsonMembers['visitMembers']): string {
  let out = '{';
  visitMembers((name, value) => {
    const text = write(value);
    if (text !== undefined) out += `${out.length > 1 ? ',' : ''}${quotedName(name)}:${text}`;
  });
  return `${out}}`;
}

/** Attribute names repeat on every item of a page: each is quoted once, not once an item. */
const quotedNames = new Map<string, string>();
const QUOTED_NAMES_KEPT = 4096;

function quotedName(name: string): string {
  let quoted = quotedNames.get(name);
  if (quoted === undefined) {
    quoted = JSON.stringify(name);
    if (quotedNames.size < QUOTED_NAMES_KEPT) quotedNames.set(name, quoted);
  }
  return quoted;
}
