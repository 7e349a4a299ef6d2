import { z } from 'zod';
import { NORMALIZATIONS } from '../core/normalize';
import type { CollectionOrder } from '../core/order';
import type { ParsedConfig } from './config-schema';

export const normalizationSchema = z.enum(NORMALIZATIONS as ['nfkd-lower', 'none']);

const orderFieldSchema = z
  .strictObject({
    field: z.string().min(1),
    type: z.enum(['string', 'number', 'date']).default('string'),
    direction: z.enum(['asc', 'desc']).default('asc'),
    /** String fields only; default: the collection's `normalization`. */
    normalization: normalizationSchema.optional(),
  })
  .refine((field) => field.type === 'string' || field.normalization === undefined, {
    message: '"normalization" applies to string fields only',
    path: ['normalization'],
  });

/** A collection's `order`: its fields, most significant first, each named once. */
export const orderSchema = z
  .array(orderFieldSchema)
  .min(1)
  .refine((fields) => new Set(fields.map((f) => f.field)).size === fields.length, {
    message: 'each field may appear in "order" once',
  });

/** The order of a validated collection entry: its `order`, or the short form `field` (one string, ascending). */
export function resolveOrder(
  spec: Pick<ParsedConfig['collections'][string], 'field' | 'order' | 'normalization'>,
): CollectionOrder {
  const fields = spec.order ?? [{ field: spec.field!, type: 'string' as const, direction: 'asc' as const }];
  return fields.map((field) => ({
    ...field,
    normalization: ('normalization' in field && field.normalization) || spec.normalization,
  }));
}
