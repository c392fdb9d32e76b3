// Re-quotes swaps on core (oracle-priced) pools at a block with each pool's own `estimateSwap`, all of them in
// one multicall: the aggregator's exact amounts for a route's core legs.
import { ammPoolAbi } from '@dex/abis';
import { decodeFunctionResult, encodeFunctionData, multicall3Abi, type Address } from 'viem';
import type { ChainPublicClient } from '../clients';

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
 * `aggregate3` (each call allowed to fail). A pool's refusal (a revert: stale price, reserve too small, paused) is
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
  const multicall3 = client.chain.contracts?.multicall3?.address;
  if (!multicall3) throw new Error(`chain ${client.chain.id} has no Multicall3 address`);
  const calls = params.swaps.map((s) => ({
    target: s.pool,
    allowFailure: true,
    callData: encodeFunctionData({ abi: ammPoolAbi, functionName: 'estimateSwap', args: [s.tokenIn, s.tokenOut, s.amountIn] }),
  }));
  const { data } = await client.call({
    to: multicall3,
    data: encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls] }),
    blockNumber: params.blockNumber,
    batch: false,
  });
  if (!data) throw new Error(`Multicall3 at ${multicall3} returned no data`);
  const results = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data });
  if (results.length !== calls.length) throw new Error(`Multicall3 answered ${results.length} results for ${calls.length} calls`);
  return results.map(({ success, returnData }) => {
    if (!success) return undefined;
    try {
      return decodeFunctionResult({ abi: ammPoolAbi, functionName: 'estimateSwap', data: returnData });
    } catch {
      // An answer that is not an estimateSwap result (no code at the address, a short return): not a quote.
      return undefined;
    }
  });
}
