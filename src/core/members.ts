import { ExactNumber } from './exact-number';
import type { JsonObject } from './item';
import { canonicalText } from './values';

/** Which items belong to a collection although shardline did not write them (config `"members"`). */
export type MembersRule =
  | { readonly attribute: string; readonly beginsWith: string }
  | { readonly attribute: string; readonly equals: string | number | boolean };

export function matchesMembers(rule: MembersRule, item: JsonObject): boolean {
  const value = item[rule.attribute];
  if ('beginsWith' in rule) return typeof value === 'string' && value.startsWith(rule.beginsWith);
  // Items read from the table hold exact numbers; the rule's number came from the config file.
  if (value instanceof ExactNumber && typeof rule.equals === 'number')
    return canonicalText(value) === canonicalText(rule.equals);
  return value === rule.equals;
}
