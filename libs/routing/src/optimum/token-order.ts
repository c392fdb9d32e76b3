/** Orders and prices of a flow graph's tokens: along a route, along the flows, by hops from the trade's ends, and the start prices of a solve. */
import type { Route } from '../route/route';
import { FlowGraph } from './flow-graph';
import { type FlowArc, flowLoop } from './flow-route';
import { pairFrom, pairKey, pairTo } from './pairs';

/** Per token of the flow graph, its position on the linear route (-1 off it). */
export function pathRanks(graph: FlowGraph, route: Route): Int32Array {
  const rank = new Int32Array(graph.tokens.length).fill(-1);
  route.tokens.forEach((t, i) => {
    const k = graph.index.get(t.toLowerCase());
    if (k !== undefined) rank[k] = i;
  });
  return rank;
}

/** Per token, its depth along loop-free arcs (the longest chain of arcs from tokenIn; -1 off them). */
export function flowRanks(arcs: readonly FlowArc[], tokenCount: number): Int32Array {
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
export function netFlowOrder(arcs: readonly FlowArc[], prices: Float64Array, tokenCount: number): Int32Array {
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
export function levelRates(graph: FlowGraph, fromIn: boolean): Float64Array {
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
