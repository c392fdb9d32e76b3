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
    const gasValue = order.gasValue ?? 0;
    return findRoute(graph, { tokenIn: order.tokenIn, tokenOut: order.tokenOut, ...order.amount, multiHop: order.multiHop, maxSwaps: order.maxSwaps, filter: order.filter, gasValue });
  } catch (err) {
    if (err instanceof NoRouteError) throw noRouteFound(order);
    throw err;
  }
}

/** The 404 of an order the engine finds no route for. */
export function noRouteFound(order: RouteOrder): BusError {
  const { multiHop, metaIn, metaOut } = order;
  return new BusError(404, 'No route found', `no ${multiHop ? 'route' : 'direct pool'} from ${metaIn.symbol} to ${metaOut.symbol} can trade the amount with the admitted sources${multiHop ? '' : ' (multiHop=true allows intermediate tokens)'}`);
}

/**
 * A hop swap with the amounts RouterV2 gives and pays it: `amountIn` is what the router hands the pool (its share
 * in the calldata), `amountOut` what arrives where the pool pays (the router, or the recipient). They differ from
 * what the pool itself receives and pays (`poolAmountIn`, `poolAmountOut`) by the transfer fees of tokens that take
 * one.
 */
export interface QuotedSwap {
  readonly swap: HopSwap;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly poolAmountIn: bigint;
  readonly poolAmountOut: bigint;
  readonly priceImpact: number;
}

/** Each token's transfer fee in basis points (lower-case address); a token not in it takes none. */
export type TransferFees = ReadonlyMap<string, number>;

/** What arrives of `amount` sent in a token that takes `bps` of each transfer, rounded down (never more than arrives). */
export function afterTransferFee(amount: bigint, bps: number | undefined): bigint {
  if (!bps) return amount;
  return (amount * BigInt(10_000 - bps)) / 10_000n;
}

/** A route re-quoted at a block: per stage (per hop for a linear route) its swaps, the route's input and (gross) output. */
export interface QuotedRoute {
  readonly route: Route;
  readonly hops: readonly (readonly QuotedSwap[])[];
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

/**
 * The outputs of a stage's swaps for their shares at the block, as they arrive: each pool receives its share less
 * the input token's transfer fee and its output arrives less the output token's (`pool` collects what the pools
 * themselves receive and pay).
 */
async function quoteHop(
  client: ChainPublicClient,
  blockNumber: bigint,
  hop: readonly HopSwap[],
  sent: readonly bigint[],
  fees: TransferFees,
  pool: { amountsIn: bigint[]; amountsOut: bigint[] },
): Promise<bigint[]> {
  const shares = hop.map((swap, j) => afterTransferFee(sent[j], fees.get(swap.tokenIn.toLowerCase())));
  pool.amountsIn = shares;
  const outs = await quotePools(client, blockNumber, hop, shares);
  pool.amountsOut = outs;
  return outs.map((out, j) => afterTransferFee(out, fees.get(hop[j].tokenOut.toLowerCase())));
}

/** What the stage's pools pay for what they receive at the block. */
async function quotePools(client: ChainPublicClient, blockNumber: bigint, hop: readonly HopSwap[], shares: readonly bigint[]): Promise<bigint[]> {
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

/**
 * The route's amounts as RouterV2 executes them at `blockNumber`, each transfer of a token with a fee in `fees`
 * paying it; a 404 when it pays nothing there. The output is what the router (or the recipient) receives from the
 * last stage's pools.
 */
export async function requoteRoute(client: ChainPublicClient, blockNumber: bigint, route: Route, fees: TransferFees = new Map()): Promise<QuotedRoute> {
  const pools: { amountsIn: bigint[]; amountsOut: bigint[] }[] = route.stages.map(() => ({ amountsIn: [], amountsOut: [] }));
  const executed = await replayStagesAsync(route.stages, route.tokens[0], route.tokens[route.tokens.length - 1], route.amountIn, (stage, shares) =>
    quoteHop(client, blockNumber, route.stages[stage], shares, fees, pools[stage]),
  );
  const amountOut = executed?.amountOut ?? 0n;
  if (!executed || amountOut === 0n) throw new BusError(404, 'No route found', 'the route pays nothing at the current block');
  const hops = executed.stages.map((stage, h) =>
    route.stages[h].map((swap, j): QuotedSwap => {
      const amountIn = stage.amountsIn[j];
      const out = stage.amountsOut[j];
      const poolAmountIn = pools[h].amountsIn[j] ?? amountIn;
      const poolAmountOut = pools[h].amountsOut[j] ?? out;
      return { swap, amountIn, amountOut: out, poolAmountIn, poolAmountOut, priceImpact: swapPriceImpact(swap.leg, poolAmountIn, poolAmountOut) };
    }),
  );
  return { route, hops, amountIn: route.amountIn, amountOut };
}
