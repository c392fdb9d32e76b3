/** The RouterV2 transaction of a quoted route: the least output it accepts, its path and its calldata. */
import { encodeExecuteSwaps, executeSwapsPath, PERMIT2_SIGNATURE_PLACEHOLDER, type RouterV2Swap } from '@dex/chain';
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
 * What the transaction is known to do beyond the model: `received`, what the recipient received in the answer's
 * simulation (the output, after the integrator fee and every transfer fee); `minAmountOut`, the least output the
 * calldata accepts in place of the one taken from it (0 for the simulation's own calldata, which must not revert on
 * a shortfall it is there to measure).
 */
export interface ExecutedAmounts {
  readonly received?: bigint;
  readonly minAmountOut?: bigint;
  /** A signed route's signer in place of the order's (the simulation's payer, which answers for any signature). */
  readonly signer?: Address;
}

/**
 * `outputTransferFeeBps`: the output token's transfer fee. RouterV2 measures what the last stage's pools paid it
 * (the quote's output, that fee already taken) and pays the user from it, a transfer that takes the fee again;
 * `minAmountOut` is checked on what arrives. (When the pools pay the recipient directly the fee is taken once and
 * the user gets more than this counts.)
 */
export function routeExecution(order: RouteOrder, quote: QuotedRoute, outputTransferFeeBps = 0, executed: ExecutedAmounts = {}): RouteExecution {
  const gross = quote.amountOut;
  const feeBps = BigInt(order.feeBps);
  const userAmount = splitOutput({ grossAmountOut: gross, expectedAmountOut: gross, feeBps, hasFeeRecipient: order.feeRecipient !== undefined }).userAmount;
  const modelled = afterTransferFee(userAmount, outputTransferFeeBps);
  const received = executed.received ?? modelled;
  const minOut = executed.minAmountOut ?? minAmountOut(received, BigInt(order.slippageBps));
  const native = { nativeIn: order.nativeIn, unwrapNative: order.unwrap };
  const calldata = encodeExecuteSwaps({
    tokens: quote.route.tokens,
    amountIn: quote.amountIn,
    minAmountOut: minOut,
    expectedAmountOut: gross,
    hopSwaps: routerSwaps(quote),
    feeBps,
    feeRecipient: order.feeRecipient,
    ...native,
    ...(order.payout ? { payout: order.payout } : {}),
    ...(order.permit2 ? { permit2: { signer: executed.signer ?? order.permit2.signer, nonce: order.permit2.nonce, signature: PERMIT2_SIGNATURE_PLACEHOLDER } } : {}),
  });
  // What the simulation delivered where it differs from the model (the integrator's fee, when there is one, kept
  // out of it as the model counts it).
  const amountOut = afterTransferFee(gross, outputTransferFeeBps) + received - modelled;
  return { path: executeSwapsPath(quote.route.tokens, native), amountOut: amountOut > 0n ? amountOut : 0n, minAmountOut: minOut, calldata };
}

/** The quoted route's stages as RouterV2 takes them (`Swap[][]`). */
export function routerSwaps(quote: QuotedRoute): RouterV2Swap[][] {
  return quote.hops.map((hop) => hop.map(({ swap, amountIn }) => ({ pool: swap.routerPool, tokenIn: swap.tokenIn, tokenOut: swap.tokenOut, routerIndex: swap.routerIndex, amountIn, data: swap.data })));
}
