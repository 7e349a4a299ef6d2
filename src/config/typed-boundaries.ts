import { bisectLeftIn, type SortedView } from '../core/collation';
import {
  decodeOrderedValue,
  encodeOrderPrefix,
  isTypedOrder,
  roundToFields,
  type CollectionOrder,
} from '../core/order';

/**
 * Boundaries as a config or boundaries file writes them, as the ordered values a range strategy
 * bisects. One ascending string field writes strings; any other order tuples of leading field
 * values (`[]`, the lowest value, first; `[2020]`, `[2020, "m"]`): fewer fields than the order
 * start at the first value with those fields. Numbers may be decimal text (digits a double loses).
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

/** As a boundaries file writes them: a typed order's rounded to whole fields, as tuples. */
export function boundaryTuples(order: CollectionOrder, boundaries: readonly string[], values: SortedView) {
  if (!isTypedOrder(order)) return [...boundaries];
  return roundedBoundaries(order, boundaries, values).map((boundary) => decodeOrderedValue(order, boundary));
}
