/**
 * Exact-output search: the smallest input whose route pays at least the requested output.
 *
 * Candidate paths are ranked by the float input they need (hops solved backwards, single pools then
 * water-filled splits). For the few best, the exact backward quote (`quotePathExactOut`) gives an input that
 * is sufficient by construction; a bisection then looks for the smallest input that still pays the output
 * with that split executed as RouterV2 executes it (each share's `quoteIn` rounds up, so the sum of the
 * shares' inputs can be a little above the least); where the path's exact-input split pays more at that input,
 * the least input for which it pays the output. The route with the least input wins. "Smallest" is
 * relative to the backward split: the bisection keeps its proportions (as RouterV2 does) and assumes the
 * output grows with the input, which holds up to the proportional floors' rounding (a few units).
 */
import { candidatePaths, type CandidatePath } from './candidate-paths';
import type { ChainGraph } from './graph';
import type { HopSplit } from './hop-split';
import { approxPathIn, quotePathExactIn, quotePathExactOut, simulateRouter } from './path-quote';
import { leastPaying } from './least-input';
import { optimumRouteExactOut, optimumSetup } from './optimal-route';
import { assembleRoute, assembleStages, type Route } from './route';
import { best, DEFAULT_EXACT_CANDIDATES, DEFAULT_SPLIT_CANDIDATES, pathOptions, type SearchOptions } from './route-options';

const paid = (hops: HopSplit[]): bigint => hops[hops.length - 1].amountOut;

/**
 * The least input for which the backward quote's split, executed the way RouterV2 splits (`simulateRouter`),
 * still pays `amountOut`. When the path's exact-input split pays more at that input (its refinement can beat the
 * backward split's placement), the least input for which that exact-input split pays `amountOut` instead, to a
 * billionth of the input: otherwise the route would pay for output that was not asked for.
 */
function tighten(path: CandidatePath, amountOut: bigint, sufficient: HopSplit[], options: SearchOptions): HopSplit[] {
  const backward = (amountIn: bigint): HopSplit[] | undefined => {
    const hops = simulateRouter(sufficient, amountIn);
    return hops && paid(hops) >= amountOut ? hops : undefined;
  };
  const top = sufficient[0].amountIn;
  const viaBackward = leastPaying(top, backward(top) ?? sufficient, backward);
  const hi = viaBackward[0].amountIn;
  const forward = (amountIn: bigint): HopSplit[] | undefined => {
    const hops = quotePathExactIn(path, amountIn, { refineSteps: options.refineSteps });
    return hops && paid(hops) >= amountOut ? hops : undefined;
  };
  const viaIn = forward(hi);
  if (!viaIn || paid(viaIn) <= paid(viaBackward)) return viaBackward;
  return leastPaying(hi, viaIn, forward, hi / 1_000_000_000n + 1n);
}

/** The best one-path route for an exact output: the least input among the few best paths. */
export function bestOnePathExactOut(graph: ChainGraph, tokenIn: string, tokenOut: string, amountOut: bigint, options: SearchOptions = {}): Route | undefined {
  if (amountOut <= 0n) return undefined;
  const paths = candidatePaths(graph, tokenIn, tokenOut, pathOptions(options));
  if (paths.length === 0) return undefined;
  const y = Number(amountOut);
  const keepSplit = options.splitCandidates ?? DEFAULT_SPLIT_CANDIDATES;
  const screened = best(paths, (p) => -approxPathIn(p, y, false), keepSplit);
  const split = best(
    [...new Set([...screened, ...paths.filter((p) => p.hops.some((h) => h.length > 1)).slice(0, keepSplit)])],
    (p) => -approxPathIn(p, y, true),
    options.exactCandidates ?? DEFAULT_EXACT_CANDIDATES,
  );
  let route: Route | undefined;
  for (const path of split) {
    const sufficient = quotePathExactOut(path, amountOut);
    if (!sufficient) continue;
    const candidate = assembleRoute(tighten(path, amountOut, sufficient, options), amountOut);
    if (!route || candidate.amountIn < route.amountIn || (candidate.amountIn === route.amountIn && candidate.amountOut > route.amountOut)) route = candidate;
  }
  return route;
}

/**
 * The exact-output route: the best one-path route, and with multiHop the optimum's (`optimumRouteExactOut`) unless
 * the one-path route is provably the optimum at its input; the one needing the least input (a one-path route on a
 * tie), so never more than the best one-path route needs.
 */
export function findRouteExactOut(graph: ChainGraph, tokenIn: string, tokenOut: string, amountOut: bigint, options: SearchOptions = {}): Route | undefined {
  const onePath = bestOnePathExactOut(graph, tokenIn, tokenOut, amountOut, options);
  if (!options.multiHop || amountOut <= 0n) return onePath;
  const setup = optimumSetup(graph, { tokenIn, tokenOut, filter: options.filter }, onePath);
  if (!setup || setup.onePathOptimal) return onePath;
  const start = Number(amountOut) / setup.spotRate;
  const optimum = optimumRouteExactOut(setup, tokenIn, tokenOut, amountOut, start, options.maxSwaps);
  if (!optimum || (onePath && onePath.amountIn <= optimum.amountIn)) return onePath;
  return assembleStages(tokenIn, tokenOut, optimum.stages, amountOut);
}
