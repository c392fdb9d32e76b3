/**
 * The optimum of a trade through every admitted pool (any split across any loop-free set of paths), rounded to a
 * route RouterV2 executes, and compared with the best one-path route so that it is never worse.
 *
 * 1. The flow graph of the trade (`flow-graph.ts`).
 * 2. Whether the best one-path route is already the optimum: with each of its tokens priced at its marginal rate
 *    (tokenOut at 1, each hop's marginal rate between the tokens it joins), no detour from one of its tokens to a
 *    later one (up to three other tokens on the way, through legs it does not use, at their zero-size rates) pays
 *    more than staying on the path. Then no flow can do better to the first order, and for concave pools not at
 *    all (`onePathIsOptimal`): the route is returned as it is.
 * 3. Otherwise the flows' optimum (`interior-flow.ts`); a loop in its flows is broken by solving again without
 *    the token pair of the loop that carries the least value (`loopFreeOptimum`), until the flows are loop-free;
 *    the flow graph grows where detours pay (`growFlows`), and a grown graph whose zero-size rates close a loop
 *    that pays has its pairs oriented before the solve (`orient`), so that the solve does not pump the loop;
 *    flows over the swap budget are cut down to it (`withinSwaps`); then stages and exact amounts (`stageArcs`).
 */
import { poolModule } from '../pools/registry';
import { maxSwapsWithinGas } from '../search/search-options';
import { FlowGraph, profitableDetours } from './flow-graph';
import { type FlowArc, flowArcs, stageArcs, type StagedRoute } from './flow-route';
import { type FlowSolution, solveFlow } from './interior-flow';
import { LOOP_DOMINANCE, type LoopFree, loopFreeOptimum } from './loop-free';
import type { OptimumSetup } from './optimum-setup';
import { orient, turnForbidden } from './orient';
import { pairKey } from './pairs';
import { flowRanks, hopOrder, startPrices } from './token-order';

/** Detours gaining less than this (relative) do not grow the flow graph. */
const GROW_MARGIN = 1e-5;
/** Growth stops after a round that raised the flows' output by less than this (relative). */
const GROW_GAIN = 1e-6;
/** Rounds of growth at most, tokens added per round, tokens at most. */
const GROW_ROUNDS = 3;
const GROW_TOKENS = 8;
const MAX_FLOW_TOKENS = 32;
/**
 * Beyond those, a large trade's growth (any trade's on a graph without paying loops) goes on while each round raises
 * the output by LARGE_GAIN at least (relative).
 */
const LARGE_GAIN = 1e-3;
const LARGE_TRADE = 0.9;
const LARGE_GROW_TOKENS = 16;
const MAX_GROW_ROUNDS = 8;
const MAX_LARGE_FLOW_TOKENS = 96;
/** A cut to the swap budget losing more than this (relative) of the last round's flows tries earlier rounds' too. */
const CUT_LOSS = 1e-3;
/** Swaps a split route holds at most by default (`SearchOptions.maxSwaps`): what 2,000,000 gas holds. */
export const DEFAULT_MAX_SWAPS = maxSwapsWithinGas(2_000_000);

/** Loop-free flows. */
interface Flows {
  readonly solution: FlowSolution;
  readonly arcs: FlowArc[];
}

/** The mask of the legs of forbidden pairs (and of legs outside `kept`, when given). */
function maskOf(graph: FlowGraph, forbidden: ReadonlySet<number>, kept?: ReadonlySet<number>): Uint8Array {
  const mask = new Uint8Array(graph.legs.length);
  for (let e = 0; e < graph.legs.length; e++) if ((kept && !kept.has(e)) || forbidden.has(pairKey(graph.from[e], graph.to[e]))) mask[e] = 1;
  return mask;
}

/** Flows on the legs the mask leaves. */
function solveMasked(graph: FlowGraph, amountIn: number, scale: Float64Array, mask: Uint8Array): Flows | undefined {
  const solution = solveFlow(graph, amountIn, scale, { forbidden: mask });
  if (!solution) return undefined;
  return { solution, arcs: flowArcs(graph, solution.inputs, solution.outputs, solution.prices, amountIn) };
}

/**
 * Loop-free flows of at most `maxSwaps` arcs: the flows as they are when they have few enough; else, round by
 * round, the arcs carrying the least value (half of the excess, at least one) left out and the flows solved again
 * on the others, so that the flows the dropped arcs carried find the best of the arcs kept before the next cut.
 */
function withinSwaps(graph: FlowGraph, amountIn: number, scale: Float64Array, forbidden: ReadonlySet<number>, found: LoopFree, maxSwaps: number): Flows | undefined {
  let flows: Flows = found;
  while (flows.arcs.length > maxSwaps) {
    const value = (a: FlowArc) => flows.solution.prices[a.from] * a.weight;
    const drop = Math.max(1, Math.ceil((flows.arcs.length - maxSwaps) / 2));
    const kept = new Set([...flows.arcs].sort((a, b) => value(b) - value(a)).slice(0, flows.arcs.length - drop).map((a) => a.index));
    const next = solveMasked(graph, amountIn, scale, maskOf(graph, forbidden, kept));
    if (!next) return undefined;
    flows = next;
  }
  return flows;
}

/**
 * The optimum's flows for `amountIn` (a float): loop-free flows on the flow graph, which grows where detours pay
 * (`profitableDetours`) for a few rounds; each round's flows within the swap budget are given to `round`. Returns
 * the last round's, with the scale they were solved at.
 */
export function growFlows(setup: OptimumSetup, x: number, maxSwaps: number, round?: (flows: Flows) => void): { flows: Flows; scale: Float64Array; forbidden: Set<number> } | undefined {
  const { graph } = setup;
  // Amounts are scaled by the tokens' zero-size prices (their best rates to tokenOut).
  let scale = startPrices(graph, undefined);
  let forbidden = new Set<number>();
  let oriented = false;
  let found = loopFreeOptimum(graph, x, scale, forbidden);
  // When loops paid far more than the trade (the loop-free flows at less than 1/LOOP_DOMINANCE of the flows with
  // loops), the loops' cuts say little about the trade's direction: the flows on the hop order are tried too.
  if (found && found.relaxed > found.solution.amountOut * LOOP_DOMINANCE) {
    const ordered = new Set<number>();
    const order = hopOrder(graph);
    for (let e = 0; e < graph.legs.length; e++) if (order[graph.from[e]] >= order[graph.to[e]]) ordered.add(pairKey(graph.from[e], graph.to[e]));
    const other = loopFreeOptimum(graph, x, scale, ordered);
    if (other && other.solution.amountOut > found.solution.amountOut) {
      found = other;
      forbidden = ordered;
    }
  }
  // Each round's flows go to `round` as they are when they hold few enough arcs; only the best round's are cut
  // down to the swap budget (`withinSwaps`, a solve per cut), and earlier rounds' only when that cut cost much.
  // Each round's flows are kept with the scale and the forbidden pairs they were solved at (pairs turn in later
  // rounds).
  let last: LoopFree | undefined;
  let lastScale = scale;
  let lastForbidden: ReadonlySet<number> = forbidden;
  const cutLater: { flows: LoopFree; scale: Float64Array; forbidden: ReadonlySet<number> }[] = [];
  let paid = 0;
  for (let r = 0; found; r++) {
    const current: LoopFree = found;
    const solvedWith: ReadonlySet<number> = new Set(forbidden);
    if (!last || current.solution.amountOut >= last.solution.amountOut) [last, lastScale, lastForbidden] = [current, scale, solvedWith];
    if (current.arcs.length <= maxSwaps) round?.(current);
    else cutLater.push({ flows: current, scale, forbidden: solvedWith });
    // Growth stops after a round that gained less than GROW_GAIN, or after GROW_ROUNDS rounds or at MAX_FLOW_TOKENS
    // tokens; but a large trade (paying less than LARGE_TRADE of what its input is worth at the best zero-size rate:
    // it spreads over much of the chain's liquidity) grows on while a round gains LARGE_GAIN at least, and so does
    // any trade on a flow graph without a loop that pays (`orient` found none): there a round's gain is liquidity
    // found further out, where free loops would make every round gain from the pools' price differences.
    const large = current.solution.amountOut < x * setup.pathRate * LARGE_TRADE;
    const small = r < GROW_ROUNDS && graph.tokens.length < MAX_FLOW_TOKENS;
    const gained = current.solution.amountOut > paid * (1 + (small ? GROW_GAIN : LARGE_GAIN));
    if (!gained || (!small && !large && oriented) || r >= MAX_GROW_ROUNDS || graph.tokens.length >= MAX_LARGE_FLOW_TOKENS) break;
    paid = current.solution.amountOut;
    // Tokens off the flow are worth what their best zero-size rates to tokens on it realise.
    const rank = flowRanks(current.arcs, graph.tokens.length);
    const onFlow = current.solution.prices.map((p, k) => (rank[k] >= 0 || k === 1 ? p : 0));
    const priced = startPrices(graph, onFlow);
    const detours = profitableDetours(graph, priced, GROW_MARGIN, small ? GROW_TOKENS : LARGE_GROW_TOKENS, rank, true);
    // Pools a pair's cap left out join too when they beat the flows' prices, and forbidden pairs that pay turn.
    const admitted = graph.admitLeftOut(priced, GROW_MARGIN);
    const turned = turnForbidden(graph, forbidden, current.solution.prices, rank, GROW_MARGIN);
    if (detours.length === 0 && admitted === 0 && turned === 0) break;
    graph.add(detours.flatMap((d) => (d.via ? [d.token, d.via] : [d.token])));
    // Where loops pay, the flows are solved at the rates of the legs they may take (loops inflate the others).
    oriented = orient(graph, forbidden, current.arcs) || oriented;
    scale = startPrices(graph, undefined, oriented ? forbidden : undefined);
    found = loopFreeOptimum(graph, x, scale, forbidden);
  }
  if (!last) return undefined;
  let few = last.arcs.length <= maxSwaps ? last : withinSwaps(graph, x, lastScale, lastForbidden, last, maxSwaps);
  if (few && few !== last) round?.(few);
  // When the cut cost the last round much, an earlier round's flows may cut better: they are cut too.
  if (!few || few.solution.amountOut < last.solution.amountOut * (1 - CUT_LOSS)) {
    for (const earlier of [...cutLater].reverse()) {
      if (earlier.flows === last) continue;
      const other = withinSwaps(graph, x, earlier.scale, earlier.forbidden, earlier.flows, maxSwaps);
      if (!other) continue;
      round?.(other);
      if (!few || other.solution.amountOut > few.solution.amountOut) [few, lastScale, lastForbidden] = [other, earlier.scale, earlier.forbidden];
    }
  }
  return few && { flows: few, scale: lastScale, forbidden: new Set(lastForbidden) };
}

/**
 * The optimum for `amountIn` rounded to stages and exact amounts, at most `maxSwaps` swaps: the best exact route
 * of the growing flow graph's rounds; undefined when none gives a route.
 */
export function optimumRoute(setup: OptimumSetup, amountIn: bigint, maxSwaps: number = DEFAULT_MAX_SWAPS): StagedRoute | undefined {
  let best: StagedRoute | undefined;
  growFlows(setup, Number(amountIn), maxSwaps, (flows) => {
    const staged = stageArcs(flows.arcs, setup.graph.tokens.length, amountIn);
    if (staged && (!best || staged.amountOut > best.amountOut)) best = staged;
  });
  return best;
}

/** The input the optimum needs for an exact output, in float, and the output's slope there (tokenOut per tokenIn). */
export interface InputEstimate {
  readonly amountIn: number;
  readonly slope: number;
}

/**
 * The input x whose optimum pays `amountOut`, in float: Newton steps on out(x) = amountOut from the guess `start`
 * (the amount at the best zero-size rate, below the input needed), the flows solved at each x: out is concave and
 * its slope is the input's price in the flows (tokenOut per unit of tokenIn), so the steps close in from below.
 * First on the flow graph as it starts (up to 8 times the guess), then on the graph grown (as for an exact input)
 * at the input found. The exact route is found from it (`exact-out.ts`).
 */
export function optimumInputEstimate(setup: OptimumSetup, amountOut: bigint, start: number, maxSwaps: number = DEFAULT_MAX_SWAPS): InputEstimate | undefined {
  const y = Number(amountOut);
  if (!(y > 0) || !(start > 0)) return undefined;
  const { graph } = setup;
  let x = start;
  let flows: Flows | undefined;
  let scale: Float64Array = new Float64Array(0);
  let forbidden = new Set<number>();
  /** Loop-free flows within the swap budget at `at`, on the flow graph as it is. */
  const solveAt = (at: number): Flows | undefined => {
    const found = loopFreeOptimum(graph, at, scale, forbidden);
    return found && withinSwaps(graph, at, scale, forbidden, found, maxSwaps);
  };
  /**
   * Newton steps on x from the flows at x until they pay y (each step within a factor 4; an input the pools cannot
   * carry whole halves); false when no input found pays it.
   */
  const newton = (limit: number): boolean => {
    for (let step = 0; step < 24 && flows; step++) {
      const { amountOut: out, prices, unspent } = flows.solution;
      if (unspent > 1e-6) x /= 2;
      else {
        if (Math.abs(out - y) <= y * 1e-9) return true;
        const next = x + (y - out) / prices[0];
        if (!Number.isFinite(next)) return false;
        if (x >= limit && next > x) return false;
        x = Math.min(Math.max(next, x / 4), x * 4, limit);
      }
      flows = solveAt(x);
    }
    return false;
  };
  // The input on the flow graph as it starts (at least the optimum's: a smaller graph pays less), then the graph
  // grown at that size and the input found again on it.
  // A graph that cannot pay the amount (at up to 8 times the guess on the start graph) grows at the last input
  // tried, and once more at the input the grown graph ends at.
  scale = startPrices(graph, undefined);
  flows = solveAt(x);
  newton(start * 8);
  for (let growth = 0; ; growth++) {
    const grown = growFlows(setup, x, maxSwaps);
    if (!grown) return undefined;
    ({ flows, scale, forbidden } = grown);
    if (newton(start * 1e6) && flows) break;
    if (growth >= 1) return undefined;
  }
  if (!flows) return undefined;
  const slope = flows.solution.prices[0];
  // Where the flows pass a pool whose exact quote lies under its float curve (`refineSplits`: a core pool's samples'
  // chords against the smooth curve through them), their exact route pays less than their float output (some 1e-5 of
  // the output on the devnet's routes through one): the input that makes up the difference at the flows' slope, so
  // that the exact route found at the estimate most often pays and one search does.
  if (flows.arcs.some((arc) => poolModule(arc.leg.pool).refineSplits(arc.leg.pool))) {
    const staged = stageArcs(flows.arcs, graph.tokens.length, BigInt(Math.ceil(x)));
    const short = staged ? y - Number(staged.amountOut) : 0;
    if (short > 0 && slope > 0) x += short / slope;
  }
  return { amountIn: x, slope };
}
