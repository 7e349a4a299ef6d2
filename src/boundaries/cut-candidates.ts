import { piecesOf, type LoadModel } from './load-model';

/**
 * Every place a cut may go, in position order: a *free* cut between values[v - 1] and values[v]
 * (boundary: their shortest separator), and for a heavy value spread over r shards r *forced* cuts
 * with the value as boundary, where it starts and every count / r items inside it; all are taken.
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
}

/**
 * The candidates for heavy hitters chosen under `max`. Short of `atLeast` places to cut (few distinct
 * keys), the values with the most items per shard spread over more shards, one at a time (never below
 * one item a shard): that only lowers loads; the caller reports if it is not enough.
 */
export function cutCandidates(model: LoadModel, max: number, atLeast = 0): Candidates {
  const { counts } = model.keys;
  const heavy = new Map<number, number>();
  for (const index of model.big) {
    const pieces = piecesOf(counts[index]!, max);
    if (pieces > 1) heavy.set(index, pieces);
  }
  let size = candidateCount(model, heavy);
  while (size < atLeast) {
    // Spreading a first value other than '' also empties shard 0: last resort.
    const first = model.startsEmpty ? 0 : 1;
    let best = -1;
    for (let v = first; v < counts.length; v++) {
      const pieces = heavy.get(v) ?? 1;
      if (pieces < counts[v]! && (best < 0 || counts[v]! / pieces > counts[best]! / (heavy.get(best) ?? 1))) best = v;
    }
    if (best < 0 && first === 1 && (heavy.get(0) ?? 1) < counts[0]!) best = 0;
    if (best < 0) break;
    heavy.set(best, (heavy.get(best) ?? 1) + 1);
    size = candidateCount(model, heavy);
  }
  // A cut at position 0 would leave shard 0 empty: only a heavy first value other
  // than '' needs one (its run cannot start at boundaries[0], which is '').
  const opensAtZero = heavy.has(0) && !model.startsEmpty;

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
  return { count: size, pos, value, forced, forcedList: Int32Array.from(forcedList) };
}

function candidateCount(model: LoadModel, heavy: ReadonlyMap<number, number>): number {
  let size = model.keys.counts.length - 1 + (heavy.has(0) && !model.startsEmpty ? 1 : 0);
  for (const pieces of heavy.values()) size += pieces - 1;
  return size;
}
