// Re-quotes swaps on core (oracle-priced) pools at a block with each pool's own `estimateSwap`, all of them in
// one multicall: the aggregator's exact amounts for a route's core legs.
import { ammPoolAbi } from '@dex/abis';
import type { Address } from 'viem';
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
 * Each swap's amount out by its pool's `estimateSwap` at `blockNumber`, in one multicall. A pool's refusal (a
 * revert: stale price, reserve too small, paused) is that swap's undefined; a failure of the call as a whole
 * (the node, the transport) throws.
 *
 * @example
 * const [out] = await quoteCoreSwaps(client, { swaps: [{ pool, tokenIn, tokenOut, amountIn }], blockNumber });
 */
export async function quoteCoreSwaps(client: ChainPublicClient, params: QuoteCoreSwapsParameters): Promise<QuoteCoreSwapsReturnType> {
  if (params.swaps.length === 0) return [];
  const reads = await client.multicall({
    blockNumber: params.blockNumber,
    allowFailure: true,
    contracts: params.swaps.map((s) => ({ address: s.pool, abi: ammPoolAbi, functionName: 'estimateSwap', args: [s.tokenIn, s.tokenOut, s.amountIn] }) as const),
  });
  return reads.map((r) => (r.status === 'success' ? r.result : undefined));
}
