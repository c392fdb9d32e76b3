// Lists the AMM's core pools as its router knows them.
import { ammRouterAbi } from '@dex/abis';
import type { Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export interface ReadCorePoolsParameters {
  /** The AMM router. */
  readonly router: Address;
  /** The block to read at; the latest when unset. */
  readonly blockNumber?: bigint;
}

export type ReadCorePoolsReturnType = Address[];

/** The core pools registered with the AMM router (`getPools`), in the router's order. */
export async function readCorePools(client: ChainPublicClient, params: ReadCorePoolsParameters): Promise<ReadCorePoolsReturnType> {
  const pools = await client.readContract({
    address: params.router,
    abi: ammRouterAbi,
    functionName: 'getPools',
    ...(params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber }),
  });
  return [...pools];
}
