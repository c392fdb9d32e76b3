// Reads the reserves of V2 and stable pools at a block: for a pool whose state no chain fact has given yet
// (its last Sync is older than what the indexer followed).
import { stablePoolAbi, uniswapV2PairAbi } from '@dex/abis';
import type { Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export interface ReadPairReservesParameters {
  readonly pools: readonly { readonly address: Address; readonly kind: 'uniswap-v2' | 'stable' }[];
  readonly blockNumber: bigint;
}

/** Per pool, its reserves, or undefined when the pool did not answer. */
export type ReadPairReservesReturnType = ({ readonly reserve0: bigint; readonly reserve1: bigint } | undefined)[];

export async function readPairReserves(client: ChainPublicClient, params: ReadPairReservesParameters): Promise<ReadPairReservesReturnType> {
  if (params.pools.length === 0) return [];
  const reads = await client.multicall({
    blockNumber: params.blockNumber,
    allowFailure: true,
    contracts: params.pools.map((p) =>
      p.kind === 'stable'
        ? ({ address: p.address, abi: stablePoolAbi, functionName: 'getReserves' } as const)
        : ({ address: p.address, abi: uniswapV2PairAbi, functionName: 'getReserves' } as const),
    ),
  });
  return reads.map((r) => (r.status === 'success' ? { reserve0: BigInt(r.result[0]), reserve1: BigInt(r.result[1]) } : undefined));
}
