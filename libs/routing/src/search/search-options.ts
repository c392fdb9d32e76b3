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

/** Items per item kept from which `best` scores by bound (below, ordering by bound costs about what it saves). */
const BOUNDED_FROM = 4;

/**
 * The `keep` best items by score (higher is better), stable for ties. With `bound` (at least the item's score, for
 * every item) and many items, items are scored from the highest bound down until the next bound is below the
 * `keep`-th best score found: those left cannot be among the best, so the answer is the same as scoring them all.
 */
export function best<T>(items: readonly T[], score: (item: T) => number, keep: number, bound?: (item: T) => number): T[] {
  let scored = items.map((item, i) => ({ item, i, s: NaN }));
  if (bound && items.length > keep * BOUNDED_FROM) {
    const bounds = items.map(bound);
    const order = scored.map((_, i) => i).sort((a, b) => bounds[b] - bounds[a] || a - b);
    // The `keep` best scores so far, ascending.
    const top: number[] = [];
    let taken = 0;
    for (; taken < order.length; taken++) {
      const i = order[taken];
      if (top.length === keep && bounds[i] < top[0]) break;
      const s = score(items[i]);
      scored[i].s = s;
      if (!(s > -Infinity)) continue;
      if (top.length === keep) {
        if (!(s > top[0])) continue;
        top.shift();
      }
      let at = top.length;
      while (at > 0 && top[at - 1] > s) at--;
      top.splice(at, 0, s);
    }
    scored = order.slice(0, taken).map((i) => scored[i]);
  } else for (const x of scored) x.s = score(x.item);
  return scored
    .filter((x) => x.s > -Infinity && !Number.isNaN(x.s))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, keep)
    .map((x) => x.item);
}
