// RouterV2's `executeSwaps` calldata for a route: the token path with the native coin's markers, the amounts,
// each stage's swaps (for a linear route, each hop's parallel swaps), the integrator fee and its recipient; with a
// recipient of the output and a deadline, `executeSwapsWithData`.
import { routerV2Abi } from '@dex/abis';
import { encodeFunctionData, getAddress, zeroAddress, type Address, type Hex } from 'viem';

/** One swap of a stage, as RouterV2 takes it (`Swap`). */
export interface RouterV2Swap {
  readonly pool: string;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly routerIndex: number;
  /** The swap's quoted input: RouterV2 splits what the route holds of `tokenIn` across the stage's swaps on it in proportion to these. */
  readonly amountIn: bigint;
  readonly data: string;
}

export interface ExecuteSwapsParameters {
  /**
   * The route's tokens, tokenIn first, tokenOut last, the intermediates between (for a route that splits across
   * paths, each once in the order the stages first produce them); the wrapped native token where the route starts
   * or ends with the native coin.
   */
  readonly tokens: readonly string[];
  readonly amountIn: bigint;
  readonly minAmountOut: bigint;
  readonly expectedAmountOut: bigint;
  /** The stages in order, each its swaps (for a linear route, per hop its parallel swaps). */
  readonly hopSwaps: readonly (readonly RouterV2Swap[])[];
  readonly feeBps: number | bigint;
  /** The integrator fee's recipient; none is the zero address. */
  readonly feeRecipient?: string;
  /** The input is the native coin (sent as the transaction's value): the path starts with the zero address. */
  readonly nativeIn?: boolean;
  /** The output is paid in the native coin: the path ends with the zero address. */
  readonly unwrapNative?: boolean;
  /**
   * Who receives the output and until when the call may execute (unix seconds, the block's timestamp): given,
   * the calldata calls `executeSwapsWithData` with them; absent, `executeSwaps` pays the sender, with no deadline.
   */
  readonly payout?: { readonly recipient: string; readonly deadline: bigint };
}

/** The path RouterV2 is given: the route's tokens, checksummed, the zero address marking a native end. */
export function executeSwapsPath(tokens: readonly string[], native: { readonly nativeIn?: boolean; readonly unwrapNative?: boolean }): Address[] {
  const path = tokens.map((t) => getAddress(t));
  if (native.nativeIn) path[0] = zeroAddress;
  if (native.unwrapNative) path[path.length - 1] = zeroAddress;
  return path;
}

/**
 * The calldata of `executeSwaps(tokens, amountIn, minAmountOut, expectedAmountOut, hopSwaps, feeBps, feeRecipient)`,
 * or, with a `payout`, of `executeSwapsWithData(..., feeRecipient, recipient, deadline)`.
 *
 * @example
 * const data = encodeExecuteSwaps({ tokens: [usdc, whype], amountIn, minAmountOut, expectedAmountOut, hopSwaps, feeBps: 0, unwrapNative: true });
 */
export function encodeExecuteSwaps(params: ExecuteSwapsParameters): Hex {
  const args = [
    executeSwapsPath(params.tokens, params),
    params.amountIn,
    params.minAmountOut,
    params.expectedAmountOut,
    params.hopSwaps.map((hop) =>
      hop.map((s) => ({
        pool: getAddress(s.pool),
        tokenIn: getAddress(s.tokenIn),
        tokenOut: getAddress(s.tokenOut),
        routerIndex: s.routerIndex,
        amountIn: s.amountIn,
        data: s.data as Hex,
      })),
    ),
    BigInt(params.feeBps),
    (params.feeRecipient ?? zeroAddress) as Address,
  ] as const;
  if (params.payout === undefined) return encodeFunctionData({ abi: routerV2Abi, functionName: 'executeSwaps', args });
  return encodeFunctionData({ abi: routerV2Abi, functionName: 'executeSwapsWithData', args: [...args, getAddress(params.payout.recipient), params.payout.deadline] });
}
