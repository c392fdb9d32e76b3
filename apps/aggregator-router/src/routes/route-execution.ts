/** The RouterV2 transaction of a quoted route: the least output it accepts, its path and its calldata. */
import { encodeExecuteSwaps, executeSwapsPath } from '@dex/chain';
import { minAmountOut, splitOutput } from '@dex/fee-math';
import type { Address, Hex } from 'viem';
import type { QuotedRoute } from './route-quote';
import type { RouteOrder } from './route-request';

export interface RouteExecution {
  /** The path RouterV2 is given (the zero address marking a native end). */
  readonly path: Address[];
  /** The user's part of the quoted output (the integrator fee taken), less the slippage tolerance. */
  readonly minAmountOut: bigint;
  readonly calldata: Hex;
}

export function routeExecution(order: RouteOrder, quote: QuotedRoute): RouteExecution {
  const gross = quote.amountOut;
  const feeBps = BigInt(order.feeBps);
  const userAmount = splitOutput({ grossAmountOut: gross, expectedAmountOut: gross, feeBps, hasFeeRecipient: order.feeRecipient !== undefined }).userAmount;
  const minOut = minAmountOut(userAmount, BigInt(order.slippageBps));
  const native = { nativeIn: order.nativeIn, unwrapNative: order.unwrap };
  const calldata = encodeExecuteSwaps({
    tokens: quote.route.tokens,
    amountIn: quote.amountIn,
    minAmountOut: minOut,
    expectedAmountOut: gross,
    hopSwaps: quote.hops.map((hop) =>
      hop.map(({ swap, amountIn }) => ({ pool: swap.poolAddress, tokenIn: swap.tokenIn, tokenOut: swap.tokenOut, routerIndex: swap.routerIndex, amountIn, data: swap.data })),
    ),
    feeBps,
    feeRecipient: order.feeRecipient,
    ...native,
    ...(order.payout ? { payout: order.payout } : {}),
  });
  return { path: executeSwapsPath(quote.route.tokens, native), minAmountOut: minOut, calldata };
}
