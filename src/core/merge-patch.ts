import { emptyRecord, fromWire, isPlainObject, markerOf, setOwn } from './values';

/** RFC 7396 merge patch of a core item by wire JSON; a typed value (`{"$set": …}`) replaces the member whole. */
export function applyMergePatch(target: unknown, patch: unknown, where = ''): unknown {
  if (!isPlainObject(patch) || markerOf(patch) !== undefined) return fromWire(patch, where || 'item');
  const result = Object.assign(emptyRecord(), isPlainObject(target) ? target : {});
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else setOwn(result, name, applyMergePatch(result[name], value, where ? `${where}.${name}` : name));
  }
  return result;
}
