import { utf8Length } from './collation';
import { ShardlineError } from './errors';
import { canonicalKeyNumber, ExactNumber } from './exact-number';
import { MAX_PARTITION_KEY_BYTES, SHARD_SEPARATOR } from './index-key';

/** A grouped collection's group field (docs/groups.md): every item carries one value of this type. */
export interface GroupSpec {
  readonly field: string;
  readonly type: 'string' | 'number';
}

/** Room a shard key needs besides the prefix and group value: two separators and a shard number of 6 digits. */
const SHARD_KEY_SLACK = 8;

/**
 * The group value as it appears in shard keys: a string as it is, a number in its canonical spelling (`1.50`
 * and `1.5` are one group). The shard number after the last `#` is digits only, so `<prefix>#<group>#<shard>`
 * splits at the last `#`: no two groups' keys meet, whatever a group value holds.
 */
export function readGroupValue(spec: GroupSpec, prefix: string, value: unknown): string {
  const refuse = (problem: string) =>
    new ShardlineError('invalid_item', `group attribute "${spec.field}" ${problem}`, { attribute: spec.field });
  let text: string;
  if (spec.type === 'string') {
    if (typeof value !== 'string' || value.length === 0) throw refuse('must be a non-empty string');
    if (!value.isWellFormed()) throw refuse('holds an unpaired surrogate');
    text = value;
  } else {
    const number = canonicalKeyNumber(value);
    if ('problem' in number) throw refuse(number.problem);
    text = number.text;
  }
  const room = MAX_PARTITION_KEY_BYTES - utf8Length(prefix) - SHARD_KEY_SLACK;
  const bytes = utf8Length(text);
  if (bytes > room) {
    throw new ShardlineError(
      'key_too_large',
      `group attribute "${spec.field}" is ${bytes} bytes; a group's shard keys leave it ${room}`,
      { attribute: spec.field, limit: room },
    );
  }
  return text;
}

/** A group value named in a URL path: its text, read as the group field's type. */
export function groupValueFromPath(spec: GroupSpec, prefix: string, text: string): string {
  try {
    return readGroupValue(spec, prefix, spec.type === 'number' ? numberFromText(text) : text);
  } catch (error) {
    if (!(error instanceof ShardlineError)) throw error;
    throw new ShardlineError('invalid_request', `group ${JSON.stringify(text.slice(0, 80))}: ${error.message}`, {
      group: text.slice(0, 80),
    });
  }
}

function numberFromText(text: string): ExactNumber | undefined {
  return /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/.test(text) ? new ExactNumber(text) : undefined;
}

/** The prefix every shard key of one group extends: `<prefix>#<group>`. */
export function groupPrefix(prefix: string, group: string): string {
  return prefix + SHARD_SEPARATOR + group;
}
