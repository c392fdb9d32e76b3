/** The answer to a route request: tokens, amounts, price impacts and the RouterV2 transaction with its hop swaps. */
import { permit2RouteTypedData, permit2SignatureOffset } from '@dex/chain';
import { checksummed, type HopSwapRecord, type RoutePermit2, type RouteResponse, type RouteSimulation, type TokenMeta } from '@dex/messages';
import { hopPriceImpact, routePriceImpact, stagePriceImpacts } from '@dex/routing';
import { formatUnits } from 'viem';
import type { ChainLiquidity } from '../liquidity/liquidity.service';
import { routerSwaps, type RouteExecution } from './route-execution';
import type { QuotedRoute, QuotedSwap } from './route-quote';
import { routeTarget, type RouteOrder } from './route-request';
import { knownToken, nativeToken } from './token-meta';

function hopRecord(chain: ChainLiquidity, { swap, amountIn, amountOut, priceImpact }: QuotedSwap): HopSwapRecord {
  return {
    tokenIn: checksummed(swap.tokenIn),
    tokenOut: checksummed(swap.tokenOut),
    poolAddress: checksummed(swap.routerPool),
    ...(swap.routerPool.toLowerCase() !== swap.poolAddress.toLowerCase() ? { poolId: swap.poolAddress.toLowerCase() } : {}),
    ...(swap.hooks !== undefined ? { hooks: checksummed(swap.hooks) } : {}),
    routerIndex: swap.routerIndex,
    routerName: swap.routerName ?? chain.sourceName(swap.routerIndex),
    ...(swap.fee !== undefined ? { fee: swap.fee } : {}),
    stable: swap.stable,
    data: swap.data,
    amountIn: amountIn.toString(),
    amountOut: amountOut.toString(),
    priceImpact,
  };
}

/**
 * The route's impact at the amounts quoted at the block: a linear route's hops compounded (`routePriceImpact`); a
 * split route's output against its input carried through the same swaps at their spot rates (`stagePriceImpacts`).
 */
export function quotedPriceImpact(quote: QuotedRoute): number {
  const { route, hops } = quote;
  // The pools' own amounts: a token's transfer fee is not the pools' price impact.
  if (!route.split) return routePriceImpact(hops.map((hop) => hopPriceImpact(hop.map((s) => s.swap.leg), hop.map((s) => s.poolAmountIn), hop.map((s) => s.poolAmountOut))));
  const stages = hops.map((stage) => stage.map((s) => ({ leg: s.swap.leg, amountIn: s.poolAmountIn, amountOut: s.poolAmountOut })));
  return stagePriceImpacts(stages, route.tokens[0], route.tokens[route.tokens.length - 1]).averagePriceImpact;
}

/** The transaction's gas and its cost (see `routeResponseSchema`). */
export interface RouteGasCost {
  readonly gasEstimate: number;
  readonly gasPrice: string;
  readonly gasCostNative: string;
  readonly gasCostUsd: string | null;
}

/** What the answer carries beside the route: its id, the route's impact, the simulation when one was asked for. */
export interface RouteAnswerExtras {
  readonly quoteId: string;
  readonly averagePriceImpact: number;
  readonly gas: RouteGasCost;
  readonly simulation?: RouteSimulation;
  /** The transfer fees measured for the route's tokens, in basis points (lower-case address); 0 for none. */
  readonly transferFees?: ReadonlyMap<string, number>;
}

export function routeAnswer(chain: ChainLiquidity, blockNumber: bigint, order: RouteOrder, quote: QuotedRoute, execution: RouteExecution, extras: RouteAnswerExtras): RouteResponse {
  const { amountIn } = quote;
  const { amountOut } = execution;
  const fees = extras.transferFees ?? new Map<string, number>();
  const withFee = (meta: TokenMeta): TokenMeta => {
    const bps = fees.get(meta.address.toLowerCase());
    return bps !== undefined ? { ...meta, transferFeeBps: bps } : meta;
  };
  const { quoteId, averagePriceImpact, simulation, gas } = extras;
  return {
    quoteId,
    chainId: chain.chainId,
    blockNumber: blockNumber.toString(),
    tokens: {
      tokenIn: order.nativeIn ? nativeToken(chain) : withFee(order.metaIn),
      tokenOut: order.unwrap ? nativeToken(chain) : withFee(order.metaOut),
      intermediates: quote.route.tokens.slice(1, -1).map((t) => withFee(knownToken(chain, t, 'intermediate'))),
    },
    amountIn: formatUnits(amountIn, order.metaIn.decimals),
    amountOut: formatUnits(amountOut, order.metaOut.decimals),
    averagePriceImpact,
    ...gas,
    execution: {
      to: routeTarget(chain, order).to,
      calldata: execution.calldata,
      value: order.nativeIn ? amountIn.toString() : '0',
      details: {
        path: execution.path,
        amountIn: amountIn.toString(),
        amountOut: amountOut.toString(),
        minAmountOut: execution.minAmountOut.toString(),
        feeBps: order.feeBps,
        ...(order.payout ? { recipient: order.payout.recipient, deadline: order.payout.deadline.toString() } : {}),
        hopSwaps: quote.hops.map((hop) => hop.map((s) => hopRecord(chain, s))),
      },
    },
    ...(simulation ? { simulation } : {}),
    ...(order.permit2 ? { permit2: permit2Answer(chain, order, quote, execution) } : {}),
  };
}

/** What the signer of a route signed through Permit2 signs, and where the signature goes in the calldata. */
function permit2Answer(chain: ChainLiquidity, order: RouteOrder, quote: QuotedRoute, execution: RouteExecution): RoutePermit2 {
  const { permit2, entry, signer, nonce } = order.permit2!;
  const payout = order.payout!;
  const typedData = permit2RouteTypedData({
    chainId: chain.chainId,
    permit2,
    spender: entry,
    router: chain.entry.routerV2,
    nonce,
    route: {
      tokens: quote.route.tokens,
      amountIn: quote.amountIn,
      minAmountOut: execution.minAmountOut,
      expectedAmountOut: quote.amountOut,
      hopSwaps: routerSwaps(quote),
      feeBps: order.feeBps,
      feeRecipient: order.feeRecipient,
      unwrapNative: order.unwrap,
      payout,
    },
  });
  return { permit2, spender: entry, signer, nonce: nonce.toString(), deadline: payout.deadline.toString(), typedData, signatureOffset: permit2SignatureOffset(execution.calldata) };
}
