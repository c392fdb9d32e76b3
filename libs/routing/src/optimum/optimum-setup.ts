/** What the optimum of a request starts from: its flow graph, whether the one-path route is already optimal, and its rates. */
import type { ChainGraph, SourceFilter } from '../graph/chain-graph';
import type { Route } from '../route/route';
import { candidatePaths } from '../search/candidate-paths';
import { FlowGraph, profitableDetours } from './flow-graph';
import { DETOUR_MARGIN, onePathIsOptimal, pathPrices } from './one-path';
import { pathRanks, startPrices } from './token-order';

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
  // Optimal when no detour through the flow graph pays at the route's prices, nor a pool a pair's cap left out of it
  // (a pair with more pools than the cap: the one-path may use as many of its pools as the flow graph takes).
  const onePathOptimal =
    onePath !== undefined &&
    prices !== undefined &&
    onePathIsOptimal(graph, onePath, prices) &&
    profitableDetours(graph, startPrices(graph, prices), DETOUR_MARGIN, 1, pathRanks(graph, onePath), true).length === 0 &&
    !graph.hasLeftOutBeating(startPrices(graph, prices), DETOUR_MARGIN);
  const spotRate = startPrices(graph, undefined)[0];
  return { graph, onePathOptimal, spotRate, pathRate: Math.min(spotRate, bestPathRate(chain, request) || Infinity) };
}
