/**
 * Exact-input search, in two parts:
 *
 * 1. the best one-path route: candidate paths -> float screen with the best single pool per hop -> float screen
 *    with water-filled splits -> exact quotes of the few best -> the route paying the most;
 * 2. with multiHop, the optimum through every admitted pool (`optimal-route.ts`): when the one-path route is not
 *    provably the optimum already, the dual's loop-free flows rounded to stages and exact amounts. The route
 *    paying more is returned, so a route is never worse than the best one-path route.
 */
import { candidatePaths, type CandidatePath } from '../search/candidate-paths';
import type { ChainGraph } from '../graph/chain-graph';
import { optimumSetup } from '../optimum/optimum-setup';
import { optimumRoute } from '../optimum/optimal-route';
import { approxPathOut, pathRateBound, quotePathExactIn } from '../search/path-quote';
import { routeGas } from '../route/gas-model';
import { assembleRoute, assembleStages, type Route } from '../route/route';
import { best, DEFAULT_EXACT_CANDIDATES, DEFAULT_SPLIT_CANDIDATES, pathOptions, type SearchOptions } from '../search/search-options';

/**
 * The one-path searches weighed against the route found when the choice is net of gas: fewer pools per hop (one,
 * two), and the direct pools alone (one, two, all): fewer swaps for less output.
 */
export const FEWER_SWAPS: readonly FewerSwaps[] = [
  { poolsPerPair: 1, directPools: 1, maxSwaps: 3 },
  { poolsPerPair: 2, directPools: 2, maxSwaps: 6 },
  { multiHop: false, poolsPerPair: 1, directPools: 1, maxSwaps: 1 },
  { multiHop: false, poolsPerPair: 2, directPools: 2, maxSwaps: 2 },
  { multiHop: false },
];

/** A one-path search with fewer swaps, and the most swaps its routes hold (searched only for a route with more). */
export type FewerSwaps = Pick<SearchOptions, 'multiHop' | 'poolsPerPair' | 'directPools' | 'maxSwaps'>;

/** The swaps of a route. */
export const swapCount = (route: Route): number => route.stages.reduce((n, hop) => n + hop.length, 0);

/**
 * Each admitted direct pool of the pair alone, as a one-path route over it (`exactIn` quotes a path): the pools a
 * depth-ranked search keeps for one swap are the pair's deepest, and a deep pool whose swap costs more gas (a sampled
 * Curve or core pool) may pay less net of gas than a shallower one that costs less. Up to DEFAULT_DIRECT_POOLS pools.
 */
export function directSinglePools(graph: ChainGraph, tokenIn: string, tokenOut: string, options: SearchOptions): CandidatePath[] {
  const [direct] = candidatePaths(graph, tokenIn, tokenOut, pathOptions({ ...options, multiHop: false }));
  if (!direct || direct.tokens.length !== 2) return [];
  return direct.hops[0].map((leg) => ({ tokens: direct.tokens, hops: [[leg]] }));
}

/** The searches of FEWER_SWAPS that can give fewer swaps than `route` holds. */
export function fewerSwapsThan(route: Route): FewerSwaps[] {
  const swaps = swapCount(route);
  return swaps <= 1 ? [] : FEWER_SWAPS.filter((f) => f.maxSwaps === undefined || f.maxSwaps < swaps);
}

/** The best one-path route (each hop split across its parallel pools). */
export function bestOnePathExactIn(graph: ChainGraph, tokenIn: string, tokenOut: string, amountIn: bigint, options: SearchOptions = {}): Route | undefined {
  if (amountIn <= 0n) return undefined;
  const paths = candidatePaths(graph, tokenIn, tokenOut, pathOptions(options));
  if (paths.length === 0) return undefined;
  const x = Number(amountIn);
  // Paths are screened from the best rate bound down, as far as a path could still be among the best.
  const bound = (p: CandidatePath) => x * pathRateBound(p);
  const screened = best(paths, (p) => approxPathOut(p, x, false), options.splitCandidates ?? DEFAULT_SPLIT_CANDIDATES, bound);
  // A path whose single pools cannot take the amount may still take it split: keep the multi-pool ones too.
  const split = best(
    [...new Set([...screened, ...paths.filter((p) => p.hops.some((h) => h.length > 1)).slice(0, options.splitCandidates ?? DEFAULT_SPLIT_CANDIDATES)])],
    (p) => approxPathOut(p, x, true),
    options.exactCandidates ?? DEFAULT_EXACT_CANDIDATES,
    bound,
  );
  let route: Route | undefined;
  for (const path of split) {
    const hops = quotePathExactIn(path, amountIn, { refineSteps: options.refineSteps });
    if (!hops) continue;
    const candidate = assembleRoute(hops);
    if (!route || candidate.amountOut > route.amountOut || (candidate.amountOut === route.amountOut && candidate.tokens.length < route.tokens.length)) route = candidate;
  }
  return route;
}

export function findRouteExactIn(graph: ChainGraph, tokenIn: string, tokenOut: string, amountIn: bigint, options: SearchOptions = {}): Route | undefined {
  const onePath = bestOnePathExactIn(graph, tokenIn, tokenOut, amountIn, options);
  const route = ((): Route | undefined => {
    if (!options.multiHop || amountIn <= 0n) return onePath;
    const setup = optimumSetup(graph, { tokenIn, tokenOut, filter: options.filter }, onePath);
    if (!setup || setup.onePathOptimal) return onePath;
    const optimum = optimumRoute(setup, amountIn, options.maxSwaps);
    if (!optimum || (onePath && onePath.amountOut >= optimum.amountOut)) return onePath;
    return assembleStages(tokenIn, tokenOut, optimum.stages);
  })();
  const gasValue = options.gasValue ?? 0;
  if (!(gasValue > 0) || !route) return route;
  // Net of gas: the route found against the one-path routes with fewer pools per hop.
  const net = (r: Route) => Number(r.amountOut) - routeGas(r) * gasValue;
  let chosen = route;
  for (const { maxSwaps: _, ...fewerSwaps } of fewerSwapsThan(route)) {
    const fewer = bestOnePathExactIn(graph, tokenIn, tokenOut, amountIn, { ...options, ...fewerSwaps });
    if (fewer && net(fewer) > net(chosen)) chosen = fewer;
  }
  if (swapCount(route) > 1) {
    for (const path of directSinglePools(graph, tokenIn, tokenOut, options)) {
      const hops = quotePathExactIn(path, amountIn, { refineSteps: options.refineSteps });
      const single = hops && assembleRoute(hops);
      if (single && single.amountOut > 0n && net(single) > net(chosen)) chosen = single;
    }
  }
  return chosen;
}
