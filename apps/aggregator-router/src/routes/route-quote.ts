/**
 * The route for an order: the engine's search on the snapshot's graph, then the route's amounts as RouterV2
 * executes them at the snapshot's block (`replayStagesAsync`: stage by stage, what the router holds of each token
 * shared across the stage's swaps on it in proportion to their quoted inputs; a linear route's stages are its
 * hops), the swaps through pools quoted on chain (core) priced by the pools' own `estimateSwap` (one multicall per
 * stage, `quoteCoreSwaps`), every other swap by its leg's exact maths.
 */
import { isUnreachable, quoteCoreSwaps, shortMessage, type ChainPublicClient } from '@dex/chain';
import { findRoute, NoRouteError, poolModule, replayStagesAsync, swapPriceImpact, type ChainGraph, type HopSwap, type Route } from '@dex/routing';
import { BusError } from '@dex/service';
import { getAddress } from 'viem';
import type { RouteOrder } from './route-request';

/** The engine's best route for the order; a 404 when no path can trade the amount with the admitted sources. */
export function searchRoute(graph: ChainGraph, order: RouteOrder): Route {
  try {
    return findRoute(graph, { tokenIn: order.tokenIn, tokenOut: order.tokenOut, ...order.amount, multiHop: order.multiHop, maxSwaps: order.maxSwaps, filter: order.filter });
  } catch (err) {
    if (err instanceof NoRouteError) {
      const { multiHop, metaIn, metaOut } = order;
      throw new BusError(404, 'No route found', `no ${multiHop ? 'route' : 'direct pool'} from ${metaIn.symbol} to ${metaOut.symbol} can trade the amount with the admitted sources${multiHop ? '' : ' (multiHop=true allows intermediate tokens)'}`);
    }
    throw err;
  }
}

/** A hop swap with the amounts RouterV2 gives and pays it. */
export interface QuotedSwap {
  readonly swap: HopSwap;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly priceImpact: number;
}

/** A route re-quoted at a block: per stage (per hop for a linear route) its swaps, the route's input and (gross) output. */
export interface QuotedRoute {
  readonly route: Route;
  readonly hops: readonly (readonly QuotedSwap[])[];
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

/** The outputs of a stage's swaps for their shares at the block. */
async function quoteHop(client: ChainPublicClient, blockNumber: bigint, hop: readonly HopSwap[], shares: readonly bigint[]): Promise<bigint[]> {
  const onChain = hop.flatMap((swap, j) => (poolModule(swap.leg.pool).quotedOnChain && shares[j] > 0n ? [j] : []));
  const quoted = await quoteCoreSwaps(client, {
    swaps: onChain.map((j) => ({ pool: getAddress(hop[j].poolAddress), tokenIn: getAddress(hop[j].tokenIn), tokenOut: getAddress(hop[j].tokenOut), amountIn: shares[j] })),
    blockNumber,
  }).catch((err: unknown) => {
    if (isUnreachable(err)) throw new BusError(503, `Chain ${client.chain.id} unavailable: no RPC provider is giving blocks`, `the core pools could not be read: ${shortMessage(err)}`);
    throw new BusError(404, 'No route found', `the core pools do not quote at the current block: ${shortMessage(err)}`);
  });
  return hop.map((swap, j) => {
    if (shares[j] === 0n) return 0n;
    if (!onChain.includes(j)) return swap.leg.quote(shares[j]);
    const out = quoted[onChain.indexOf(j)];
    if (out === undefined) throw new BusError(404, 'No route found', `the core pool ${swap.poolAddress} does not quote the amount at the current block`);
    return out;
  });
}

/** The route's amounts as RouterV2 executes them at `blockNumber`; a 404 when it pays nothing there. */
export async function requoteRoute(client: ChainPublicClient, blockNumber: bigint, route: Route): Promise<QuotedRoute> {
  const executed = await replayStagesAsync(route.hopSwaps, route.tokens[0], route.tokens[route.tokens.length - 1], route.amountIn, (stage, shares) =>
    quoteHop(client, blockNumber, route.hopSwaps[stage], shares),
  );
  const amountOut = executed?.amountOut ?? 0n;
  if (!executed || amountOut === 0n) throw new BusError(404, 'No route found', 'the route pays nothing at the current block');
  const hops = executed.stages.map((stage, h) =>
    route.hopSwaps[h].map((swap, j): QuotedSwap => {
      const amountIn = stage.amountsIn[j];
      const out = stage.amountsOut[j];
      return { swap, amountIn, amountOut: out, priceImpact: swapPriceImpact(swap.leg, amountIn, out) };
    }),
  );
  return { route, hops, amountIn: route.amountIn, amountOut };
}
