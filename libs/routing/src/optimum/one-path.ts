/**
 * Whether the best one-path route is already the optimum: with each of its tokens priced at its marginal rate
 * (tokenOut at 1, each hop's marginal rate between the tokens it joins), no detour from one of its tokens to a later
 * one (up to three other tokens on the way, through legs it does not use, at their zero-size rates) pays more than
 * staying on the path. Then no flow can do better to the first order, and for concave pools not at all.
 */
import type { Leg } from '../pools/legs';
import type { Route } from '../route/route';
import { FlowGraph } from './flow-graph';

/** A detour must beat the path by this fraction of its price to count. */
export const DETOUR_MARGIN = 1e-6;

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
