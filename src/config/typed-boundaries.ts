import { bisectLeftIn, type SortedView } from '../core/collation';
import {
  decodeOrderedValue,
  encodeOrderPrefix,
  isTypedOrder,
  roundToFields,
  type CollectionOrder,
} from '../core/order';

/**
 * A range strategy's boundaries as written in a config or boundaries file, turned into
 * the ordered values it bisects. A collection ordered by one ascending string field
 * writes them as strings; any other order writes each as a tuple of leading field
 * values — `[]` (the lowest value: the first boundary), `[2020]`, `[2020, "m"]` — and
 * a tuple of fewer fields than the order starts at its first value with those fields.
 * Numbers may be JSON numbers or decimal text (for digits a double would lose).
 * Throws an Error naming the boundary and field that is not a value.
 */
export function encodeTypedBoundaries(
  boundaries: readonly (string | readonly (string | number)[])[],
  order: CollectionOrder | undefined,
): string[] {
  const typed = order !== undefined && isTypedOrder(order);
  return boundaries.map((boundary, i) => {
    if (!typed) {
      if (typeof boundary === 'string') return boundary;
      throw new Error(`boundaries: boundary ${i} is a tuple, but this collection orders by one string field`);
    }
    if (typeof boundary === 'string') {
      throw new Error(
        `boundaries: boundary ${i} is a string; a typed order's boundaries are tuples of field values ([] first)`,
      );
    }
    return encodeOrderPrefix(order, boundary, true, (field, problem) => {
      throw new Error(`boundaries: boundary ${i} ${JSON.stringify(boundary)}: field "${field}" ${problem}`);
    });
  });
}

/**
 * Range cuts rounded up to whole fields, so each decodes to a tuple: a cut is rounded
 * against the first of the sorted `values` at or above it (the value it was cut before),
 * so it separates the same values. Orders of one string field keep their cuts as they are.
 */
export function roundedBoundaries(order: CollectionOrder, boundaries: readonly string[], values: SortedView): string[] {
  if (!isTypedOrder(order)) return [...boundaries];
  return boundaries.map((cut) => {
    const next = values.at(bisectLeftIn(values, cut));
    return next === undefined ? cut : roundToFields(order, cut, next);
  });
}

/**
 * A typed collection's range boundaries as a boundaries file writes them: rounded to
 * whole fields and written as tuples. Orders of one string field keep them as strings.
 */
export function boundaryTuples(
  order: CollectionOrder,
  boundaries: readonly string[],
  values: SortedView,
): (string | (string | number)[])[] {
  if (!isTypedOrder(order)) return [...boundaries];
  return roundedBoundaries(order, boundaries, values).map((boundary) => decodeOrderedValue(order, boundary));
}
