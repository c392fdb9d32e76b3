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
import { candidatePaths, type CandidatePath } from '../search/candidate-paths';
import type { ChainGraph } from '../graph/chain-graph';
import type { HopSplit } from '../search/hop-split';
import { approxPathIn, pathRateBound, quotePathExactIn, quotePathExactOut, simulateRouter } from '../search/path-quote';
import { leastPaying, type Paying } from '../math/least-input';
import { bestOnePathExactIn, directSinglePools, fewerSwapsThan, findRouteExactIn, swapCount } from './exact-in';
import { routeGas } from '../route/gas-model';
import { restage } from '../optimum/flow-route';
import { optimumSetup } from '../optimum/optimum-setup';
import { optimumInputEstimate, type InputEstimate } from '../optimum/optimal-route';
import { assembleRoute, assembleStages, type Route, type StagedSwap } from '../route/route';
import { best, DEFAULT_EXACT_CANDIDATES, DEFAULT_SPLIT_CANDIDATES, pathOptions, type SearchOptions } from '../search/search-options';

const paid = (hops: HopSplit[]): bigint => hops[hops.length - 1].amountOut;

/**
 * A billionth of the input (and a unit): the tolerance of the forward tightening, and of the other least-input
 * searches where a route's payment is a staircase (`leastPaying`'s flat tolerance): the payment steps where the route
 * passes a token of few decimals (6-decimal USDC between two 18-decimal tokens steps by about 1e12 units of the
 * input), and to find a step's edge to the unit takes some 40 bisections where to a billionth takes a few. The input
 * found lies at most that far above the least (a millionth of a dollar on a $1,000 trade); elsewhere those searches
 * find the least to the unit.
 */
const withinBillionth = (amountIn: bigint): bigint => amountIn / 1_000_000_000n + 1n;

/**
 * The least input for which the backward quote's split, executed the way RouterV2 splits (`simulateRouter`),
 * still pays `amountOut`. When the path's exact-input split pays more at that input (its refinement can beat the
 * backward split's placement), the least input for which that exact-input split pays `amountOut` instead, to a
 * billionth of the input: otherwise the route would pay for output that was not asked for.
 */
function tighten(path: CandidatePath, amountOut: bigint, sufficient: HopSplit[], options: SearchOptions): HopSplit[] {
  const backward = (amountIn: bigint): Paying<HopSplit[]> | undefined => {
    const hops = simulateRouter(sufficient, amountIn);
    return hops && { value: hops, paid: paid(hops) };
  };
  const top = sufficient[0].amountIn;
  const atTop = backward(top);
  const viaBackward = atTop && atTop.paid >= amountOut ? leastPaying(top, atTop, backward, amountOut, 1n, withinBillionth(top)) : sufficient;
  const hi = viaBackward[0].amountIn;
  const forward = (amountIn: bigint): Paying<HopSplit[]> | undefined => {
    const hops = quotePathExactIn(path, amountIn, { refineSteps: options.refineSteps });
    return hops && { value: hops, paid: paid(hops) };
  };
  const viaIn = forward(hi);
  if (!viaIn || viaIn.paid < amountOut || viaIn.paid <= paid(viaBackward)) return viaBackward;
  return leastPaying(hi, viaIn, forward, amountOut, withinBillionth(hi));
}

/** How far above the best tightened input a path's sufficient input may lie and still be tightened (relative). */
const TIGHTEN_REACH = 5e-3;

/** The best one-path route for an exact output: the least input among the few best paths. */
export function bestOnePathExactOut(graph: ChainGraph, tokenIn: string, tokenOut: string, amountOut: bigint, options: SearchOptions = {}): Route | undefined {
  if (amountOut <= 0n) return undefined;
  const paths = candidatePaths(graph, tokenIn, tokenOut, pathOptions(options));
  if (paths.length === 0) return undefined;
  const y = Number(amountOut);
  const keepSplit = options.splitCandidates ?? DEFAULT_SPLIT_CANDIDATES;
  // Paths are screened from the best rate bound down (the least input a path could need), as far as a path could
  // still be among the best.
  const bound = (p: CandidatePath) => -y / pathRateBound(p);
  const screened = best(paths, (p) => -approxPathIn(p, y, false), keepSplit, bound);
  const split = best(
    [...new Set([...screened, ...paths.filter((p) => p.hops.some((h) => h.length > 1)).slice(0, keepSplit)])],
    (p) => -approxPathIn(p, y, true),
    options.exactCandidates ?? DEFAULT_EXACT_CANDIDATES,
    bound,
  );
  // Each path's sufficient input first; tightened from the least, a path whose sufficient input lies more than
  // TIGHTEN_REACH above the best tightened input is not tightened (tightening takes off rounding and a better
  // placement of the split, far less than that).
  const quoted = split.flatMap((path) => {
    const sufficient = quotePathExactOut(path, amountOut);
    return sufficient ? [{ path, sufficient }] : [];
  });
  quoted.sort((a, b) => (a.sufficient[0].amountIn < b.sufficient[0].amountIn ? -1 : a.sufficient[0].amountIn > b.sufficient[0].amountIn ? 1 : 0));
  let route: Route | undefined;
  for (const { path, sufficient } of quoted) {
    if (route && Number(sufficient[0].amountIn) > Number(route.amountIn) * (1 + TIGHTEN_REACH)) break;
    const candidate = assembleRoute(tighten(path, amountOut, sufficient, options), amountOut);
    if (!route || candidate.amountIn < route.amountIn || (candidate.amountIn === route.amountIn && candidate.amountOut > route.amountOut)) route = candidate;
  }
  return route;
}

/** How far above the optimum's estimate the first input tried lies (relative). */
const FIRST_AIM = 2e-7;
/** A route paying more than asked by what this much of its input buys (relative) is close enough. */
const CLOSE_ENOUGH = 3e-7;

/**
 * The least input whose exact-input route (`findRouteExactIn`, the very search an exact-input request runs) pays
 * `amountOut`, from the optimum's float estimate: Newton steps at the estimate's slope (a chord), kept in a bracket
 * (an input that pays bounds from above, one that does not from below; halfway when a step leaves it), until the
 * least input is known to a ten-millionth, or a route pays more than asked by no more than CLOSE_ENOUGH of what its
 * input buys. `ceiling` is an input known to pay (the one-path route's), if any. The first input tried lies
 * FIRST_AIM above the estimate: the exact routes pay a little less than the float optimum (on the devnet's route mix
 * 1e-9 to 1e-7 less, in 5 searches of 6), so that one aimed at the estimate itself most often falls short and costs
 * a second search. Each paying route's stages are taken down to the least input that still pays (`tighten`), and the
 * least of those is the answer; the search also ends once it is no more than an input whose route fell short.
 */
function leastExactIn<T extends { readonly amountIn: bigint }>(
  exactIn: (amountIn: bigint) => Route | undefined,
  tighten: (route: Route) => T,
  amountOut: bigint,
  estimate: InputEstimate | undefined,
  ceiling: bigint | undefined,
): T | undefined {
  let lo = 0;
  // The least input found without a route (more than the pools carry).
  let tooMuch = Infinity;
  let best: Route | undefined;
  // The least input of any paying route's stages.
  let least: T | undefined;
  const slope = estimate?.slope ?? 0;
  let at = estimate ? Math.ceil(estimate.amountIn * (1 + FIRST_AIM)) : Number(ceiling ?? 0n);
  if (!(at > 0)) return undefined;
  for (let tries = 0; tries < 32; tries++) {
    const route = exactIn(BigInt(at));
    if (!route) tooMuch = Math.min(tooMuch, at);
    else if (route.amountOut >= amountOut) {
      if (!best || route.amountIn < best.amountIn) best = route;
      const tight = tighten(route);
      if (!least || tight.amountIn < least.amountIn) least = tight;
    } else lo = Math.max(lo, at);
    const hi = best ? Number(best.amountIn) : ceiling !== undefined ? Number(ceiling) : Infinity;
    const close = (top: number) => top < Infinity && top - lo <= Math.max(1, top * 1e-7);
    if (close(hi) || close(tooMuch)) break;
    // A paying route whose stages pay with no more than an input whose own route falls short: the routes between
    // pay no less at their inputs than its stages do (where the routes change with the input, at large sizes on
    // large graphs, the bracket would close on one change after another).
    if (least && lo > 0 && Number(least.amountIn) <= lo) break;
    // A route paying more than asked by what CLOSE_ENOUGH of its input buys is close enough: the least input of its
    // stages is found next, without searching again.
    if (best && slope > 0 && Number(best.amountOut - amountOut) / slope <= Math.max(1, Number(best.amountIn) * CLOSE_ENOUGH)) break;
    // Newton's step, aimed a twenty-millionth above the root so that the next route likely pays and closes.
    let next = route && slope > 0 ? (at + Number(amountOut - route.amountOut) / slope) * (1 + 5e-8) : NaN;
    const top = Math.min(hi, tooMuch);
    if (!(next > lo && next < top)) next = top < Infinity ? lo + (top - lo) / 2 : Math.max(at * 2, 1);
    // Above the lower bound by a hundred-millionth at least, so that a shortfall of rounding closes.
    at = Math.ceil(Math.min(Math.max(next, lo + Math.max(1, lo * 1e-8)), top - 1));
  }
  if (least) return least;
  const fallback = ceiling !== undefined ? exactIn(ceiling) : undefined;
  return fallback && fallback.amountOut >= amountOut ? tighten(fallback) : undefined;
}

/**
 * The exact-output route: the best one-path route, and with multiHop, unless the one-path route is provably the
 * optimum at its input, the least input whose exact-input route pays the amount (`leastExactIn`) with its stages'
 * quoted inputs then fixed (RouterV2 shares what it holds in their proportion) and the input lowered while it still
 * pays (`leastPaying`); the one needing the least input (a one-path route on a tie). So an exact-output request
 * needs no more than the best one-path route, nor than the exact-input request that pays the same.
 */
export function findRouteExactOut(graph: ChainGraph, tokenIn: string, tokenOut: string, amountOut: bigint, options: SearchOptions = {}): Route | undefined {
  const { gasValue = 0, ...search } = options;
  const route = leastInputRoute(graph, tokenIn, tokenOut, amountOut, search);
  if (!(gasValue > 0) || !route) return route;
  // Net of gas: the route found against the one-path routes with fewer pools per hop.
  const cost = (r: Route) => Number(r.amountIn) + routeGas(r) * gasValue;
  let chosen = route;
  for (const { maxSwaps: _, ...fewerSwaps } of fewerSwapsThan(route)) {
    // First the route's input through the search with fewer swaps (an exact input, far cheaper than an exact
    // output): the input it lacks, at the route's rate, must be less than the gas it saves, or it cannot win.
    const probe = bestOnePathExactIn(graph, tokenIn, tokenOut, route.amountIn, { ...search, ...fewerSwaps });
    if (!probe) continue;
    const lacking = Math.max(0, Number(amountOut - probe.amountOut)) * (Number(route.amountIn) / Number(amountOut));
    if (lacking >= (routeGas(route) - routeGas(probe)) * gasValue) continue;
    const fewer = bestOnePathExactOut(graph, tokenIn, tokenOut, amountOut, { ...search, ...fewerSwaps });
    if (fewer && cost(fewer) < cost(chosen)) chosen = fewer;
  }
  // Each direct pool alone (`directSinglePools`): a shallower pool may cost less net of gas than the deepest.
  if (swapCount(route) > 1) {
    for (const path of directSinglePools(graph, tokenIn, tokenOut, search)) {
      const hops = quotePathExactOut(path, amountOut);
      const single = hops && assembleRoute(hops, amountOut);
      if (single && single.amountOut >= amountOut && cost(single) < cost(chosen)) chosen = single;
    }
  }
  return chosen;
}

/** Doublings at most of the search for an input that pays, when the optimum gave no estimate. */
const CEILING_DOUBLINGS = 16;

/** The exact-output route needing the least input, gas aside (see `findRouteExactOut`). */
function leastInputRoute(graph: ChainGraph, tokenIn: string, tokenOut: string, amountOut: bigint, options: SearchOptions): Route | undefined {
  const onePath = bestOnePathExactOut(graph, tokenIn, tokenOut, amountOut, options);
  if (!options.multiHop || amountOut <= 0n) return onePath;
  const setup = optimumSetup(graph, { tokenIn, tokenOut, filter: options.filter }, onePath);
  if (!setup || setup.onePathOptimal) return onePath;
  const start = Number(amountOut) / setup.spotRate;
  const estimate = optimumInputEstimate(setup, amountOut, start, options.maxSwaps);
  const exactIn = (amountIn: bigint) => findRouteExactIn(graph, tokenIn, tokenOut, amountIn, options);
  // Without an estimate nor a one-path route that pays, an input that pays is searched for: doubling from the
  // input at the best zero-size rate (below what is needed) while the routes pay less and the pools carry it.
  let ceiling = onePath?.amountIn;
  if (!estimate && ceiling === undefined && start > 0) {
    for (let at = start, tries = 0; tries < CEILING_DOUBLINGS; at *= 2, tries++) {
      const route = exactIn(BigInt(Math.ceil(at)));
      if (!route) break;
      if (route.amountOut >= amountOut) {
        ceiling = route.amountIn;
        break;
      }
    }
  }
  // A paying route's stages with their quoted inputs fixed (RouterV2 shares what it holds in their proportion), at
  // the least input that still pays.
  const tighten = (found: Route) => {
    const quoted: StagedSwap[][] = found.stages.map((stage) => stage.map((s) => ({ leg: s.leg, amountIn: s.amountIn, amountOut: s.amountOut })));
    const pays = (input: bigint) => {
      const replayed = restage(quoted, tokenIn, tokenOut, input);
      return replayed && { value: { ...replayed, amountIn: input }, paid: replayed.amountOut };
    };
    return leastPaying(found.amountIn, { value: { stages: quoted, amountOut: found.amountOut, amountIn: found.amountIn }, paid: found.amountOut }, pays, amountOut, 1n, withinBillionth(found.amountIn));
  };
  const least = leastExactIn(exactIn, tighten, amountOut, estimate, ceiling);
  if (!least) return onePath;
  if (onePath && onePath.amountIn <= least.amountIn) return onePath;
  return assembleStages(tokenIn, tokenOut, least.stages, amountOut);
}
