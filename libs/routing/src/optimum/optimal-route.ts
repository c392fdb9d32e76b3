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
import { candidatePaths } from '../search/candidate-paths';
import { FlowGraph, profitableDetours } from './flow-graph';
import { solveFlow, type FlowSolution } from './interior-flow';
import { flowArcs, flowLoop, stageArcs, type FlowArc, type StagedRoute } from './flow-route';
import type { ChainGraph, SourceFilter } from '../graph/chain-graph';
import type { Leg } from '../pools/legs';
import { poolModule } from '../pools/registry';
import type { Route } from '../route/route';
import { maxSwapsWithinGas } from '../search/search-options';

/** A detour must beat the path by this fraction of its price to count. */
const DETOUR_MARGIN = 1e-6;
/** Loops broken at most before giving up on the optimum (the one-path route stands). */
const MAX_LOOP_BREAKS = 12;
/** A token pair (from, to) by index, as one number. */
const PAIR_BASE = 4096;
export const pairKey = (from: number, to: number): number => from * PAIR_BASE + to;
/** A pair key's tokens. */
const pairFrom = (pair: number): number => Math.floor(pair / PAIR_BASE);
const pairTo = (pair: number): number => pair % PAIR_BASE;

/** Loops in one solution beyond which they are broken by the order of the flow's trade (`netFlowOrder`). */
const MANY_LOOPS = 4;
/** See `optimumRoute`. */
const LOOP_DOMINANCE = 1.5;
/** Newton steps after which flows that hold a loop end their solve (see `loopFreeOptimum`). */
const LOOP_CHECK_STEPS = 30;

/** Each hop's marginal rate (the swaps' marginal rates at their inputs, weighted by input). */
function hopMarginals(route: Route): number[] {
  return route.stages.map((hop) => {
    let weight = 0;
    let sum = 0;
    for (const s of hop) {
      const x = Number(s.amountIn);
      sum += s.leg.marginal(x) * x;
      weight += x;
    }
    return weight > 0 ? sum / weight : 0;
  });
}

/** Prices of a linear route's tokens (lower case): tokenOut 1, each hop's marginal rate between its tokens. */
export function pathPrices(route: Route): Map<string, number> {
  const marginals = hopMarginals(route);
  const prices = new Map<string, number>();
  let price = 1;
  prices.set(route.tokens[route.tokens.length - 1].toLowerCase(), 1);
  for (let h = route.stages.length - 1; h >= 0; h--) {
    price *= marginals[h];
    prices.set(route.tokens[h].toLowerCase(), price);
  }
  return prices;
}

/** Per token of the flow graph, the indices of the legs leaving it. */
function legsFrom(graph: FlowGraph): number[][] {
  const out: number[][] = graph.tokens.map(() => []);
  for (let e = 0; e < graph.legs.length; e++) out[graph.from[e]].push(e);
  return out;
}

/**
 * Whether no detour beats the linear route at its marginal prices (see the module note): then the route is the
 * optimum of the flow graph.
 */
export function onePathIsOptimal(graph: FlowGraph, route: Route, prices: ReadonlyMap<string, number>): boolean {
  const index = new Map(graph.tokens.map((t, i) => [t, i]));
  const path = route.tokens.map((t) => index.get(t.toLowerCase()));
  if (path.some((i) => i === undefined)) return false;
  const position = new Map<number, number>(path.map((t, i) => [t!, i]));
  const used = new Set<Leg>(route.stages.flatMap((hop) => hop.map((s) => s.leg)));
  const out = legsFrom(graph);
  const nu = route.tokens.map((t) => prices.get(t.toLowerCase())!);
  const best = new Float64Array(graph.tokens.length);
  for (let i = 0; i + 1 < path.length; i++) {
    best.fill(0);
    const a = path[i]!;
    best[a] = 1;
    let frontier = [a];
    for (let round = 0; round < 4 && frontier.length; round++) {
      const next: number[] = [];
      const queued = new Set<number>();
      for (const u of frontier) {
        for (const e of out[u]) {
          const leg = graph.legs[e];
          if (used.has(leg)) continue;
          const v = graph.to[e];
          const rate = best[u] * leg.spotRate;
          const j = position.get(v);
          if (j !== undefined) {
            if (j > i && rate * nu[j] > nu[i] * (1 + DETOUR_MARGIN)) return false;
            continue;
          }
          if (rate > best[v]) {
            best[v] = rate;
            if (!queued.has(v)) {
              queued.add(v);
              next.push(v);
            }
          }
        }
      }
      frontier = next;
    }
  }
  return true;
}

/** Per token of the flow graph, its position on the linear route (-1 off it). */
function pathRanks(graph: FlowGraph, route: Route): Int32Array {
  const rank = new Int32Array(graph.tokens.length).fill(-1);
  route.tokens.forEach((t, i) => {
    const k = graph.index.get(t.toLowerCase());
    if (k !== undefined) rank[k] = i;
  });
  return rank;
}

/** Per token, its depth along loop-free arcs (the longest chain of arcs from tokenIn; -1 off them). */
function flowRanks(arcs: readonly FlowArc[], tokenCount: number): Int32Array {
  const rank = new Int32Array(tokenCount).fill(-1);
  rank[0] = 0;
  for (let round = 0; round < tokenCount; round++) {
    let changed = false;
    for (const a of arcs) {
      if (rank[a.from] >= 0 && rank[a.from] + 1 > rank[a.to]) {
        rank[a.to] = rank[a.from] + 1;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return rank;
}

/**
 * Prices for every token of the flow graph: those given (by index, or by address), and every other token at its best
 * zero-size rate to tokens already priced.
 */
export function startPrices(graph: FlowGraph, given: ReadonlyMap<string, number> | Float64Array | undefined, forbidden?: ReadonlySet<number>): Float64Array {
  const n = graph.tokens.length;
  const prices = new Float64Array(n);
  const fixed = new Uint8Array(n);
  prices[1] = 1;
  fixed[1] = 1;
  graph.tokens.forEach((t, i) => {
    const p = given instanceof Float64Array ? given[i] : given?.get(t);
    if (p !== undefined && p > 0) {
      prices[i] = p;
      fixed[i] = 1;
    }
  });
  for (let round = 0; round < n; round++) {
    let changed = false;
    for (let e = 0; e < graph.legs.length; e++) {
      const u = graph.from[e];
      if (fixed[u] || forbidden?.has(pairKey(u, graph.to[e]))) continue;
      const value = graph.legs[e].spotRate * prices[graph.to[e]];
      if (value > prices[u] * (1 + 1e-12)) {
        prices[u] = value;
        changed = true;
      }
    }
    if (!changed) break;
  }
  let least = Infinity;
  for (let i = 0; i < n; i++) if (prices[i] > 0) least = Math.min(least, prices[i]);
  for (let i = 0; i < n; i++) if (!(prices[i] > 0)) prices[i] = least * 1e-6;
  return prices;
}

/**
 * An order of the flow graph's tokens a trade follows: by the fewest legs from tokenIn, then by the most legs to
 * tokenOut (a token further from tokenOut comes first), then by index. Per token its position.
 */
export function hopOrder(graph: FlowGraph): Int32Array {
  const n = graph.tokens.length;
  // Tokens no leg reaches (or leaves towards tokenOut) as far as none is.
  const fromIn = hopDistances(graph, true).map((d) => (d < 0 ? n + 1 : d));
  const toOut = hopDistances(graph, false).map((d) => (d < 0 ? n + 1 : d));
  const tokens = [...Array(n).keys()].sort((a, b) => fromIn[a] - fromIn[b] || toOut[b] - toOut[a] || a - b);
  const order = new Int32Array(n);
  tokens.forEach((t, i) => (order[t] = i));
  order[1] = n; // tokenOut last
  return order;
}

/** Per token of the flow graph, the fewest legs from tokenIn (`fromIn`) or to tokenOut; -1 where none leads. */
function hopDistances(graph: FlowGraph, fromIn: boolean): Int32Array {
  const [start, near, far] = fromIn ? [0, graph.from, graph.to] : [1, graph.to, graph.from];
  const legsAt: number[][] = graph.tokens.map(() => []);
  for (let e = 0; e < graph.legs.length; e++) legsAt[near[e]].push(e);
  const distance = new Int32Array(graph.tokens.length).fill(-1);
  distance[start] = 0;
  for (let level = [start]; level.length; ) {
    const next: number[] = [];
    for (const t of level) {
      for (const e of legsAt[t]) {
        if (distance[far[e]] >= 0) continue;
        distance[far[e]] = distance[t] + 1;
        next.push(far[e]);
      }
    }
    level = next;
  }
  return distance;
}

/**
 * An order of the tokens carrying flow that the flow's trade follows: the net value flow between each pair of
 * tokens (one direction less the other), its loops cancelled (the least net value around each loop taken off
 * every arc of it, the circulation an arbitrage loop pumps), then sorted topologically. Per token its position;
 * -1 for tokens without net flow.
 */
function netFlowOrder(arcs: readonly FlowArc[], prices: Float64Array, tokenCount: number): Int32Array {
  const value = new Map<number, number>();
  for (const a of arcs) {
    const pair = pairKey(a.from, a.to);
    value.set(pair, (value.get(pair) ?? 0) + prices[a.from] * a.weight);
  }
  let net: FlowArc[] = [];
  for (const [pair, v] of value) {
    const [from, to] = [pairFrom(pair), pairTo(pair)];
    const back = value.get(pairKey(to, from)) ?? 0;
    if (v > back) net.push({ index: -1, leg: arcs[0].leg, from, to, weight: v - back });
  }
  for (let loop = flowLoop(net, tokenCount); loop; loop = flowLoop(net, tokenCount)) {
    let least = Infinity;
    for (const k of loop) least = Math.min(least, net[k].weight);
    const on = new Set(loop);
    net = net.map((a, k) => (on.has(k) ? { ...a, weight: a.weight - least } : a)).filter((a) => a.weight > least * 1e-12);
  }
  const order = new Int32Array(tokenCount).fill(-1);
  const indegree = new Int32Array(tokenCount);
  const inFlow = new Uint8Array(tokenCount);
  for (const a of net) {
    indegree[a.to]++;
    inFlow[a.from] = inFlow[a.to] = 1;
  }
  const queue: number[] = [];
  for (let t = 0; t < tokenCount; t++) if (inFlow[t] && indegree[t] === 0) queue.push(t);
  let position = 0;
  while (queue.length) {
    const t = queue.shift()!;
    order[t] = position++;
    for (const a of net) if (a.from === t && --indegree[a.to] === 0) queue.push(a.to);
  }
  return order;
}

/**
 * Per token of the flow graph, its best zero-size rate from tokenIn (`fromIn`) or to tokenOut over paths that get one
 * leg further from tokenIn (closer to tokenOut) at every leg, by the fewest legs: no loop of the pools inflates it,
 * unlike `startPrices`. 0 for a token no such path reaches.
 */
function levelRates(graph: FlowGraph, fromIn: boolean): Float64Array {
  const [start, near, far] = fromIn ? [0, graph.from, graph.to] : [1, graph.to, graph.from];
  const distance = hopDistances(graph, fromIn);
  const rates = new Float64Array(graph.tokens.length);
  rates[start] = 1;
  // Level by level from the start, over the legs one level further: a token's rate is final once the level before
  // it is done.
  const deepest = Math.max(...distance);
  for (let level = 0; level < deepest; level++) {
    for (let e = 0; e < graph.legs.length; e++) {
      const [t, o] = [near[e], far[e]];
      if (distance[t] === level && distance[o] === level + 1) rates[o] = Math.max(rates[o], rates[t] * graph.legs[e].spotRate);
    }
  }
  return rates;
}

/** Profitable loops broken by `orient` at most; beyond, the flows' own loops are broken as they come. */
const MAX_ORIENT_CUTS = 64;

/**
 * Token pairs with their best zero-size rates (`rate`, by `pairKey`), and as `payingLoop` reads them: each pair's
 * tokens and -log of its rate.
 */
interface RatedPairs {
  readonly rate: ReadonlyMap<number, number>;
  readonly pairs: readonly number[];
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly weight: Float64Array;
}

/** The pairs of `count` legs (leg k from token `from(k)` to `to(k)` at zero-size rate `rateOf(k)`) that pay anything. */
function ratedPairs(count: number, from: (k: number) => number, to: (k: number) => number, rateOf: (k: number) => number): RatedPairs {
  const rate = new Map<number, number>();
  for (let k = 0; k < count; k++) {
    const pair = pairKey(from(k), to(k));
    if (rateOf(k) > (rate.get(pair) ?? 0)) rate.set(pair, rateOf(k));
  }
  const pairs = [...rate.keys()];
  return {
    rate,
    pairs,
    from: Int32Array.from(pairs, pairFrom),
    to: Int32Array.from(pairs, pairTo),
    weight: Float64Array.from(pairs, (p) => -Math.log(rate.get(p)!)),
  };
}

/**
 * A loop of the pairs (those not `left` out, 1 at a pair's index) whose zero-size rates multiply to more than 1
 * (Bellman-Ford on -log rate), as its pairs; undefined when none pays. After each round the tokens' predecessor
 * links are walked: a loop among them is a loop that pays (its weights sum below zero, checked), found after about
 * as many rounds as it has pairs rather than after one round per token.
 */
function payingLoop(tokenCount: number, rated: RatedPairs, left?: Uint8Array): number[] | undefined {
  const { pairs, from, to, weight } = rated;
  const dist = new Float64Array(tokenCount);
  const via = new Int32Array(tokenCount).fill(-1);
  // The walk that last visited each token (walks are numbered on across rounds, so a round's walks are those from
  // its first on and no clearing is needed).
  const walk = new Int32Array(tokenCount);
  let walks = 0;
  /** A paying loop of the predecessor links, if they hold one. */
  const linkedLoop = (): number[] | undefined => {
    const first = walks + 1;
    for (let start = 0; start < tokenCount; start++) {
      if (walk[start] >= first) continue;
      const id = ++walks;
      let t = start;
      while (t >= 0 && walk[t] < first) {
        walk[t] = id;
        t = via[t] >= 0 ? from[via[t]] : -1;
      }
      if (t < 0 || walk[t] !== id) continue;
      // t is on a loop of this walk: around it.
      const loop: number[] = [];
      let sum = 0;
      let u = t;
      do {
        loop.push(pairs[via[u]]);
        sum += weight[via[u]];
        u = from[via[u]];
      } while (u !== t);
      if (sum < -1e-12) return loop;
    }
    return undefined;
  };
  for (let round = 0; round < tokenCount; round++) {
    let relaxed = false;
    for (let k = 0; k < pairs.length; k++) {
      if (left && left[k]) continue;
      const d = dist[from[k]] + weight[k];
      if (d < dist[to[k]] - 1e-12) {
        dist[to[k]] = d;
        via[to[k]] = k;
        relaxed = true;
      }
    }
    if (!relaxed) return undefined;
    const loop = linkedLoop();
    if (loop) return loop;
  }
  return undefined;
}

/**
 * When the flow graph's zero-size rates close a loop that pays (a free arbitrage loop the flows would pump, at many
 * times the trade), forbids before any solve the token pairs that let them: each pair with legs both ways keeps the
 * direction a trade through it pays more in (the best zero-size rate from tokenIn to its first token, times the
 * pair's, times the best from its second token to tokenOut: `levelRates`); then, while a loop still
 * pays, its pair with the least such through rate is forbidden. Pairs in `forbidden` stay so; the new ones are
 * added to it. A graph without a paying loop is left as it is (false). The growth rounds turn a forbidden pair back when
 * the flows' prices say it pays (`growFlows`).
 */
export function orient(graph: FlowGraph, forbidden: Set<number>, flowing: readonly FlowArc[] = []): boolean {
  const carried = new Set(flowing.map((a) => pairKey(a.from, a.to)));
  const rated = ratedPairs(
    graph.legs.length,
    (e) => graph.from[e],
    (e) => graph.to[e],
    (e) => graph.legs[e].spotRate,
  );
  const { rate, pairs } = rated;
  const at = new Map(pairs.map((pair, k) => [pair, k]));
  const left = Uint8Array.from(pairs, (pair) => (forbidden.has(pair) ? 1 : 0));
  const forbid = (pair: number): void => {
    forbidden.add(pair);
    const k = at.get(pair);
    if (k !== undefined) left[k] = 1;
  };
  const n = graph.tokens.length;
  let loop = payingLoop(n, rated, left);
  if (!loop) return false;
  const reach = levelRates(graph, true);
  const value = levelRates(graph, false);
  const through = (pair: number): number => reach[pairFrom(pair)] * rate.get(pair)! * value[pairTo(pair)];
  for (const pair of pairs) {
    const [u, v] = [pairFrom(pair), pairTo(pair)];
    const back = pairKey(v, u);
    if (u > v || !rate.has(back) || forbidden.has(pair) || forbidden.has(back)) continue;
    if (carried.has(pair) || carried.has(back)) forbid(carried.has(pair) ? back : pair);
    else forbid(through(pair) >= through(back) ? back : pair);
  }
  for (let cut = 0; cut < MAX_ORIENT_CUTS; cut++) {
    loop = payingLoop(n, rated, left);
    if (!loop) return true;
    const free = loop.filter((pair) => !carried.has(pair));
    if (free.length === 0) return true;
    forbid(free.reduce((weakest, pair) => (through(pair) < through(weakest) ? pair : weakest)));
  }
  return true;
}

/**
 * Forbidden pairs the flows' prices say pay (a leg of the pair beats the price ratio of its tokens by `margin`)
 * and that cannot close a loop with the flows (they go from a token on the flow to one later on it, or off it):
 * turned, the other direction of the pair forbidden in their place. Returns how many.
 */
function turnForbidden(graph: FlowGraph, forbidden: Set<number>, prices: Float64Array, rank: Int32Array, margin: number): number {
  const turned = new Set<number>();
  for (let e = 0; e < graph.legs.length; e++) {
    const [u, v] = [graph.from[e], graph.to[e]];
    const pair = pairKey(u, v);
    if (!forbidden.has(pair) || !(prices[u] > 0) || !(prices[v] > 0)) continue;
    if (rank[u] < 0 || (rank[v] >= 0 && rank[v] <= rank[u])) continue;
    if (graph.legs[e].spotRate * prices[v] > prices[u] * (1 + margin)) turned.add(pair);
  }
  for (const pair of turned) {
    forbidden.delete(pair);
    forbidden.add(pairKey(pairTo(pair), pairFrom(pair)));
  }
  return turned.size;
}

/** Whether the arcs close a loop whose legs' zero-size rates multiply to more than 1 (`payingLoop` on their pairs). */
export function arcsPay(arcs: readonly FlowArc[], tokenCount: number): boolean {
  const rated = ratedPairs(
    arcs.length,
    (k) => arcs[k].from,
    (k) => arcs[k].to,
    (k) => arcs[k].leg.spotRate,
  );
  return payingLoop(tokenCount, rated) !== undefined;
}

/** Loop-free flows, and what the first flows (with their loops) paid. */
export interface LoopFree {
  readonly solution: FlowSolution;
  readonly arcs: FlowArc[];
  readonly relaxed: number;
}

/**
 * The loop-free optimum for `amountIn`. The flows are solved; when they hold loops (the free arbitrage loops of
 * the pools, pumped for profit), every leg going against the order of the flow's trade (`netFlowOrder`) is left
 * out and the flows solved again; loops left after that (through tokens without flow) lose, loop by loop, their
 * token pair carrying the least value. Forbidden pairs (`pairKey` of token indices) accumulate in `forbidden`.
 * Undefined when loops remain after MAX_LOOP_BREAKS solves.
 */
export function loopFreeOptimum(graph: FlowGraph, amountIn: number, scale: Float64Array, forbidden: Set<number> = new Set()): LoopFree | undefined {
  let relaxed = 0;
  for (let attempt = 0; attempt <= MAX_LOOP_BREAKS; attempt++) {
    const mask = new Uint8Array(graph.legs.length);
    if (forbidden.size) for (let e = 0; e < graph.legs.length; e++) if (forbidden.has(pairKey(graph.from[e], graph.to[e]))) mask[e] = 1;
    // The optimum pumps a loop of the legs whose zero-size rates multiply to more than 1 (a little flow around it
    // pays), so flows whose arcs close such a loop after LOOP_CHECK_STEPS steps would end holding a loop and be solved
    // again whatever they converge to: the solve stops there, and the loops' cuts and the relaxed output are taken
    // from that point (on the 10,000-pool bench graph the first solve of every query, 43% of the Newton steps).
    const solution = solveFlow(graph, amountIn, scale, {
      forbidden: mask,
      checkAt: LOOP_CHECK_STEPS,
      stopIf: (s) => arcsPay(flowArcs(graph, s.inputs, s.outputs, s.prices, amountIn), graph.tokens.length),
    });
    if (!solution) return undefined;
    const arcs = flowArcs(graph, solution.inputs, solution.outputs, solution.prices, amountIn);
    if (attempt === 0) relaxed = solution.amountOut;
    if (!flowLoop(arcs, graph.tokens.length)) return { solution, arcs, relaxed };
    // Every loop of the arcs loses its token pair carrying the least value (all its legs together), loop after
    // loop in the arcs left; when the flows hold many loops (pools priced apart everywhere), the first time the
    // legs against the order of the flow's trade are forbidden instead.
    const pairValue = new Map<number, number>();
    for (const a of arcs) {
      const pair = pairKey(a.from, a.to);
      pairValue.set(pair, (pairValue.get(pair) ?? 0) + solution.prices[a.from] * a.weight);
    }
    const cuts: number[] = [];
    let left = arcs;
    for (let loop = flowLoop(left, graph.tokens.length); loop; loop = flowLoop(left, graph.tokens.length)) {
      let weakest = -1;
      for (const k of loop) {
        const pair = pairKey(left[k].from, left[k].to);
        if (weakest < 0 || pairValue.get(pair)! < pairValue.get(weakest)!) weakest = pair;
      }
      cuts.push(weakest);
      if (attempt === 0 && cuts.length > MANY_LOOPS) break;
      left = left.filter((a) => pairKey(a.from, a.to) !== weakest);
    }
    if (attempt === 0 && cuts.length > MANY_LOOPS) {
      const order = netFlowOrder(arcs, solution.prices, graph.tokens.length);
      for (let e = 0; e < graph.legs.length; e++) {
        const [u, v] = [graph.from[e], graph.to[e]];
        if (order[u] >= 0 && order[v] >= 0 && order[u] > order[v]) forbidden.add(pairKey(u, v));
      }
    } else for (const cut of cuts) forbidden.add(cut);
  }
  return undefined;
}

export interface OptimumRequest {
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly filter?: SourceFilter;
}

/**
 * tokenIn's best zero-size rate to tokenOut (tokenOut base units per base unit of tokenIn) over the candidate paths
 * (up to three hops, no token twice): unlike the flow graph's prices, no free loop of the pools inflates it. 1 for a
 * token to itself, 0 without a path. Also what a gas cost in the native coin is worth in a token (`gasValue`).
 */
export function bestPathRate(chain: ChainGraph, request: OptimumRequest): number {
  if (request.tokenIn.toLowerCase() === request.tokenOut.toLowerCase()) return 1;
  let best = 0;
  for (const path of candidatePaths(chain, request.tokenIn, request.tokenOut, { maxHops: 3, filter: request.filter })) {
    let rate = 1;
    for (const hop of path.hops) rate *= hop.reduce((top, leg) => Math.max(top, leg.spotRate), 0);
    best = Math.max(best, rate);
  }
  return best;
}

/** The optimum's flow graph and whether the best one-path route is the optimum already. */
export interface OptimumSetup {
  readonly graph: FlowGraph;
  readonly onePathOptimal: boolean;
  /** tokenIn's best zero-size rate to tokenOut in the flow graph (tokenOut base units per base unit). */
  readonly spotRate: number;
  /** The same over loop-free candidate paths (`bestPathRate`), for telling a large trade. */
  readonly pathRate: number;
}

/** Builds the flow graph and starting prices, and checks whether the one-path route is optimal already. */
export function optimumSetup(chain: ChainGraph, request: OptimumRequest, onePath: Route | undefined): OptimumSetup | undefined {
  const prices = onePath && !onePath.split ? pathPrices(onePath) : undefined;
  const inPrice = prices?.get(request.tokenIn.toLowerCase());
  const graph = FlowGraph.create(chain, request.tokenIn, request.tokenOut, {
    filter: request.filter,
    keep: onePath?.tokens,
    minThroughRate: inPrice !== undefined ? inPrice * (1 - 1e-3) : 0,
  });
  if (!graph) return undefined;
  const onePathOptimal =
    onePath !== undefined &&
    prices !== undefined &&
    onePathIsOptimal(graph, onePath, prices) &&
    profitableDetours(graph, startPrices(graph, prices), DETOUR_MARGIN, 1, pathRanks(graph, onePath), true).length === 0;
  const spotRate = startPrices(graph, undefined)[0];
  return { graph, onePathOptimal, spotRate, pathRate: Math.min(spotRate, bestPathRate(chain, request) || Infinity) };
}

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
function growFlows(setup: OptimumSetup, x: number, maxSwaps: number, round?: (flows: Flows) => void): { flows: Flows; scale: Float64Array; forbidden: Set<number> } | undefined {
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
  if (flows.arcs.some((arc) => poolModule(arc.leg.pool).refineSplits)) {
    const staged = stageArcs(flows.arcs, graph.tokens.length, BigInt(Math.ceil(x)));
    const short = staged ? y - Number(staged.amountOut) : 0;
    if (short > 0 && slope > 0) x += short / slope;
  }
  return { amountIn: x, slope };
}
