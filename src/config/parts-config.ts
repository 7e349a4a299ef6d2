import type { CollectionSpec } from '../core/collection';
import { type PartsConfig, partsProblem } from '../core/parts';

/** The collection with its `parts`, checked at start: one line naming why a collection cannot have them. */
export function withParts(spec: CollectionSpec, parts: PartsConfig | undefined): CollectionSpec {
  if (!parts) return spec;
  const problem = partsProblem(spec, parts);
  if (problem) throw new Error(`collection "${spec.name}": ${problem}`);
  return { ...spec, parts };
}
