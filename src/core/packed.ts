/** Built by pushing, V8 keeps it packed, where `new Array(n).fill` makes a holey one (and beats typed arrays). */
export function packed<T>(length: number, value: T): T[] {
  const array: T[] = [];
  for (let i = 0; i < length; i++) array.push(value);
  return array;
}
