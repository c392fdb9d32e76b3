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
  /**
   * Swaps a route split across paths holds at most. Default 24 (`DEFAULT_MAX_SWAPS`, what 2,000,000 gas holds);
   * `maxSwapsWithinGas` gives it for a chain's gas budget.
   */
  readonly maxSwaps?: number;
  /**
   * What one unit of gas is worth, for a choice net of gas: in tokenOut base units for an exact input (the route
   * paying the most output less its gas so valued is taken), in tokenIn base units for an exact output (the route
   * needing the least input plus its gas). The routes weighed: the route found (the optimum across paths or the best
   * one-path route) and the one-path routes with fewer swaps (`FEWER_SWAPS`: one or two pools per hop, the direct
   * pools alone); a split or a hop is so taken only when it pays for its gas.
   * 0 or unset: the most output (the least input), gas aside.
   */
  readonly gasValue?: number;
}

/**
 * Gas of a RouterV2 call besides its swaps (the call, the input taken, the output paid out), and of one swap, as
 * `bench/router-gas` measures them on the V2 pools (a single hop 101,290; each further swap 58,700 to 70,000), with
 * a margin for the pool kinds that cost more.
 */
export const ROUTE_BASE_GAS = 60_000;
export const SWAP_GAS = 80_000;

/** The most swaps a route may hold within `gas` (at least one). */
export function maxSwapsWithinGas(gas: number): number {
  return Math.max(1, Math.floor((gas - ROUTE_BASE_GAS) / SWAP_GAS));
}

export const DEFAULT_SPLIT_CANDIDATES = 16;
export const DEFAULT_EXACT_CANDIDATES = 3;

export function pathOptions(options: SearchOptions): PathOptions {
  return {
    maxHops: options.multiHop ? 3 : 1,
    poolsPerPair: options.poolsPerPair,
    directPools: options.directPools,
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
