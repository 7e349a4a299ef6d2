import { emptyRecord, fromWire, isPlainObject, markerOf, setOwn } from './values';

/**
 * RFC 7396 JSON merge patch of an item in core form by the request's JSON (wire form). A typed
 * value (`{"$set": …}`, `{"$binary": …}`, `{"$map": …}`) is a value, not a patch: it replaces the member.
 */
export function applyMergePatch(target: unknown, patch: unknown, where = ''): unknown {
  if (!isPlainObject(patch) || markerOf(patch) !== undefined) return fromWire(patch, where || 'item');
  const result = Object.assign(emptyRecord(), isPlainObject(target) ? target : {});
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else setOwn(result, name, applyMergePatch(result[name], value, where ? `${where}.${name}` : name));
  }
  return result;
}
