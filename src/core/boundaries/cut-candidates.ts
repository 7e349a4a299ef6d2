import { piecesOf, type LoadModel } from './load-model';

/**
 * Every place a cut may go, in position order, once the heavy hitters are known.
 *
 * - A *free* cut sits between values[v - 1] and values[v] (position prefix[v]); its
 *   boundary is the shortest separator of the two.
 * - A heavy value spread over r shards has r *forced* cuts, all with the value
 *   itself as boundary: one where it starts (the shard before ends below it) and
 *   r - 1 inside it, every count / r items. Every forced cut must be taken, which
 *   is what makes the boundary repeat r times.
 */
export interface Candidates {
  readonly count: number;
  /** Items before the cut (fractional inside a spread value); strictly increasing. */
  readonly pos: Float64Array;
  /** The value the cut is at: starts (free) or belongs to (forced). */
  readonly value: Int32Array;
  readonly forced: Uint8Array;
  /** Indexes of the forced candidates, ascending. */
  readonly forcedList: Int32Array;
  /** The spread values: value index → shards it is spread over. */
  readonly heavy: ReadonlyMap<number, number>;
}

/** Builds the candidates for heavy hitters chosen under the max load `max`. */
export function cutCandidates(model: LoadModel, max: number): Candidates {
  const { counts } = model.keys;
  const heavy = new Map<number, number>();
  for (const index of model.big) {
    const pieces = piecesOf(counts[index]!, max);
    if (pieces > 1) heavy.set(index, pieces);
  }
  // A cut at position 0 would leave shard 0 empty: only a heavy first value other
  // than '' needs one (its run cannot start at boundaries[0], which is '').
  const opensAtZero = heavy.has(0) && !model.startsEmpty;
  let size = counts.length - 1 + (opensAtZero ? 1 : 0);
  for (const pieces of heavy.values()) size += pieces - 1;

  const pos = new Float64Array(size);
  const value = new Int32Array(size);
  const forced = new Uint8Array(size);
  const forcedList: number[] = [];
  let c = 0;
  const add = (at: number, v: number, isForced: boolean): void => {
    pos[c] = at;
    value[c] = v;
    forced[c] = isForced ? 1 : 0;
    if (isForced) forcedList.push(c);
    c++;
  };
  for (let v = 0; v < counts.length; v++) {
    const pieces = heavy.get(v) ?? 1;
    const start = model.prefix[v]!;
    if (v > 0 || opensAtZero) add(start, v, pieces > 1);
    for (let p = 1; p < pieces; p++) add(start + (counts[v]! * p) / pieces, v, true);
  }
  return { count: size, pos, value, forced, forcedList: Int32Array.from(forcedList), heavy };
}
