// Quotes amounts on the AMM through its router at one block, with the pool's reserves at that block: the
// contract's estimate is the quote (core pools are oracle-priced and cannot be replicated off chain).
import { ammPoolAbi, ammRouterAbi } from '@dex/abis';
import type { Address } from 'viem';
import type { ChainPublicClient } from '../clients';

/** The router's ABI plus the pool's errors, so a revert inside the pool decodes by name. */
const routerWithPoolErrors = [...ammRouterAbi, ...ammPoolAbi.filter((item) => item.type === 'error')] as const;

export interface EstimateCoreSwapBatchParameters {
  /** The AMM router. */
  readonly router: Address;
  /** The pool the router trades the pair on (see readCorePoolForPair), whose reserves are read too. */
  readonly pool: Address;
  readonly tokenIn: Address;
  readonly tokenOut: Address;
  readonly amountsIn: readonly bigint[];
  readonly blockNumber: bigint;
}

export interface EstimateCoreSwapBatchReturnType {
  /** Per amount in, the amount out. */
  readonly amountsOut: readonly bigint[];
  /** The pool's reserves at the block, in the pool's token order. */
  readonly reserves: readonly [bigint, bigint];
}

/**
 * The router's `estimateSwapBatch` for every amount and the pool's `getReserves`, in one multicall at the block.
 * Throws the revert of the estimate as it is (the pool's errors decode by name, see `revertName`, `panicCode`).
 */
export async function estimateCoreSwapBatch(client: ChainPublicClient, params: EstimateCoreSwapBatchParameters): Promise<EstimateCoreSwapBatchReturnType> {
  const [amountsOut, reserves] = await client.multicall({
    blockNumber: params.blockNumber,
    allowFailure: false,
    contracts: [
      { address: params.router, abi: routerWithPoolErrors, functionName: 'estimateSwapBatch', args: [params.tokenIn, params.tokenOut, [...params.amountsIn]] },
      { address: params.pool, abi: ammPoolAbi, functionName: 'getReserves' },
    ],
  });
  return { amountsOut, reserves: [reserves[0], reserves[1]] };
}
