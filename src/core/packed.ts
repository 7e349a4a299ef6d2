/**
 * Built by pushing: V8 keeps it packed (Smis or unboxed doubles), where `new Array(n).fill` makes
 * a holey one. Small hot arrays this way are also cheaper to create than typed arrays.
 */
export function packed<T>(length: number, value: T): T[] {
  const array: T[] = [];
  for (let i = 0; i < length; i++) array.push(value);
  return array;
}
