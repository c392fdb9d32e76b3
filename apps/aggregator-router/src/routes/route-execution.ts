/** The RouterV2 transaction of a quoted route: the least output it accepts, its path and its calldata. */
import { encodeExecuteSwaps, executeSwapsPath } from '@dex/chain';
import { minAmountOut, splitOutput } from '@dex/fee-math';
import type { Address, Hex } from 'viem';
import { afterTransferFee, type QuotedRoute } from './route-quote';
import type { RouteOrder } from './route-request';

export interface RouteExecution {
  /** The path RouterV2 is given (the zero address marking a native end). */
  readonly path: Address[];
  /**
   * What the recipient receives of the quoted output with no integrator fee: the output less the output token's
   * transfer fee on the router's payout (a token that takes none: the output).
   */
  readonly amountOut: bigint;
  /** The user's part of the quoted output (the integrator fee taken) as it arrives, less the slippage tolerance. */
  readonly minAmountOut: bigint;
  readonly calldata: Hex;
}

/**
 * `outputTransferFeeBps`: the output token's transfer fee. RouterV2 measures what the last stage's pools paid it
 * (the quote's output, that fee already taken) and pays the user from it, a transfer that takes the fee again;
 * `minAmountOut` is checked on what arrives. (When the pools pay the recipient directly the fee is taken once and
 * the user gets more than this counts.)
 */
export function routeExecution(order: RouteOrder, quote: QuotedRoute, outputTransferFeeBps = 0): RouteExecution {
  const gross = quote.amountOut;
  const feeBps = BigInt(order.feeBps);
  const userAmount = splitOutput({ grossAmountOut: gross, expectedAmountOut: gross, feeBps, hasFeeRecipient: order.feeRecipient !== undefined }).userAmount;
  const minOut = minAmountOut(afterTransferFee(userAmount, outputTransferFeeBps), BigInt(order.slippageBps));
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
  return { path: executeSwapsPath(quote.route.tokens, native), amountOut: afterTransferFee(gross, outputTransferFeeBps), minAmountOut: minOut, calldata };
}
