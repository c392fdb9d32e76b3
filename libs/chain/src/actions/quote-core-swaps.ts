// Re-quotes swaps on core (oracle-priced) pools at a block with each pool's own `estimateSwap`, all of them in
// one multicall: the aggregator's exact amounts for a route's core legs.
import { ammPoolAbi } from '@dex/abis';
import { decodeFunctionResult, encodeFunctionData, type Address } from 'viem';
import type { ChainPublicClient } from '../clients';
import { aggregateCalls } from '../multicall3';

export interface CoreSwapToQuote {
  readonly pool: Address;
  readonly tokenIn: Address;
  readonly tokenOut: Address;
  readonly amountIn: bigint;
}

export interface QuoteCoreSwapsParameters {
  readonly swaps: readonly CoreSwapToQuote[];
  readonly blockNumber: bigint;
}

/** Per swap, in the order given, the amount out; undefined when the pool does not quote it (it reverted). */
export type QuoteCoreSwapsReturnType = (bigint | undefined)[];

/**
 * Each swap's amount out by its pool's `estimateSwap` at `blockNumber`, in one `eth_call` to Multicall3's
 * `aggregate3` (each call allowed to fail; `aggregateCalls`). A pool's refusal (a revert: stale price, reserve too small, paused) is
 * that swap's undefined; a failure of the call as a whole (the node, the transport) throws.
 *
 * The call is sent at once, not through the client's multicall batching: that batching holds every call for a
 * timer tick (at least a millisecond, more on a busy event loop) to gather others, and a route's re-quote is on
 * the path of its answer.
 *
 * @example
 * const [out] = await quoteCoreSwaps(client, { swaps: [{ pool, tokenIn, tokenOut, amountIn }], blockNumber });
 */
export async function quoteCoreSwaps(client: ChainPublicClient, params: QuoteCoreSwapsParameters): Promise<QuoteCoreSwapsReturnType> {
  if (params.swaps.length === 0) return [];
  const answers = await aggregateCalls(
    client,
    params.blockNumber,
    params.swaps.map((s) => ({ target: s.pool, callData: encodeFunctionData({ abi: ammPoolAbi, functionName: 'estimateSwap', args: [s.tokenIn, s.tokenOut, s.amountIn] }) })),
  );
  return answers.map((data) => {
    if (data === undefined) return undefined;
    try {
      return decodeFunctionResult({ abi: ammPoolAbi, functionName: 'estimateSwap', data });
    } catch {
      // An answer that is not an estimateSwap result (no code at the address, a short return): not a quote.
      return undefined;
    }
  });
}
