/** The engine's entry point: one request, exact input or exact output, to one RouterV2-shaped route. */
import { findRouteExactIn } from './exact-in';
import { findRouteExactOut } from './exact-out';
import type { ChainGraph } from '../graph/chain-graph';
import type { Route } from '../route/route';
import type { SearchOptions } from '../search/search-options';

export type RouteRequest = SearchOptions & {
  readonly tokenIn: string;
  readonly tokenOut: string;
} & ({ readonly amountIn: bigint; readonly amountOut?: undefined } | { readonly amountOut: bigint; readonly amountIn?: undefined });

/** No path between the tokens can trade the amount with the admitted sources. */
export class NoRouteError extends Error {
  override readonly name = 'NoRouteError';
}

export function findRoute(graph: ChainGraph, request: RouteRequest): Route {
  const { tokenIn, tokenOut } = request;
  if (tokenIn.toLowerCase() === tokenOut.toLowerCase()) throw new NoRouteError('tokenIn and tokenOut are the same token');
  const route =
    request.amountIn !== undefined
      ? findRouteExactIn(graph, tokenIn, tokenOut, request.amountIn, request)
      : findRouteExactOut(graph, tokenIn, tokenOut, request.amountOut, request);
  if (!route) throw new NoRouteError(`no route from ${tokenIn} to ${tokenOut} for the amount on chain ${graph.chainId}`);
  return route;
}
