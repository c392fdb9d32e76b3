/** Search settings shared by the exact-input and exact-output searches, with their defaults. */
import type { PathOptions } from './candidate-paths';

/** The path settings of `PathOptions`, its hop count given by `multiHop`. */
export interface SearchOptions extends Omit<PathOptions, 'maxHops'> {
  /**
   * Route through intermediate tokens: the best path of up to 3 hops, and the optimum through every admitted pool
   * (any split across loop-free paths, within `maxSwaps` swaps); direct swaps only when false. Default false.
   */
  readonly multiHop?: boolean;
  /** Paths kept after the single-pool float screen for the float split screen. Default 16. */
  readonly splitCandidates?: number;
  /** Paths quoted exactly (the best after the split screen). Default 3. */
  readonly exactCandidates?: number;
  /** Refinement steps of the exact split (see `SplitOptions` in `hop-split.ts`). */
  readonly refineSteps?: number;
  /** Swaps a route split across paths holds at most. Default 24 (`DEFAULT_MAX_SWAPS`). */
  readonly maxSwaps?: number;
}

export const DEFAULT_SPLIT_CANDIDATES = 16;
export const DEFAULT_EXACT_CANDIDATES = 3;

export function pathOptions(options: SearchOptions): PathOptions {
  return {
    maxHops: options.multiHop ? 3 : 1,
    poolsPerPair: options.poolsPerPair,
    maxPaths: options.maxPaths,
    maxNeighbours: options.maxNeighbours,
    maxJoins: options.maxJoins,
    filter: options.filter,
  };
}

/** The `keep` best items by score (higher is better), stable for ties. */
export function best<T>(items: readonly T[], score: (item: T) => number, keep: number): T[] {
  return items
    .map((item, i) => ({ item, i, s: score(item) }))
    .filter((x) => x.s > -Infinity && !Number.isNaN(x.s))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, keep)
    .map((x) => x.item);
}
