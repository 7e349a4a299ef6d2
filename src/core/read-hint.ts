/**
 * What a page of a one-group listing (hash, random) read past its end, in its cursor, to size the next page's
 * first reads. Every shard is still queried and the merge decides: a stale hint costs reads, never items.
 */
export interface ReadHint {
  /** Per shard of the group: whether it may hold more than the page read from it. */
  readonly more: readonly boolean[];
  /** The shard of each item read past the end, in read order (at most MAX_AHEAD). */
  readonly ahead: readonly number[];
}

/** Items past the end a hint keeps: about a page's start, and short enough for a URL. */
export const MAX_AHEAD = 128;
/** Groups larger than this (36², two base-36 digits a shard) carry no hint. */
export const MAX_HINT_SHARDS = 1296;

/** The hint as cursor text: `more` as 0/1, `ahead` as fixed-width base-36 shard numbers. */
export function packHint(hint: ReadHint): { m: string; a: string } {
  const width = digits(hint.more.length);
  return {
    m: hint.more.map((more) => (more ? '1' : '0')).join(''),
    a: hint.ahead.map((shard) => shard.toString(36).padStart(width, '0')).join(''),
  };
}

export function unpackHint(packed: unknown): ReadHint | undefined {
  if (typeof packed !== 'object' || packed === null) return undefined;
  const { m, a } = packed as { m?: unknown; a?: unknown };
  if (typeof m !== 'string' || typeof a !== 'string' || !/^[01]+$/.test(m) || m.length > MAX_HINT_SHARDS)
    return undefined;
  const width = digits(m.length);
  if (a.length % width !== 0 || a.length / width > MAX_AHEAD || !/^[0-9a-z]*$/.test(a)) return undefined;
  const ahead: number[] = [];
  for (let at = 0; at < a.length; at += width) {
    const shard = Number.parseInt(a.slice(at, at + width), 36);
    if (shard >= m.length) return undefined;
    ahead.push(shard);
  }
  return { more: [...m].map((bit) => bit === '1'), ahead };
}

function digits(shards: number): number {
  return shards <= 36 ? 1 : 2;
}
