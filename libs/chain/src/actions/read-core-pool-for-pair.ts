// Finds the AMM's core pool of a token pair through its router.
import { ammPoolAbi, ammRouterAbi } from '@dex/abis';
import { zeroAddress, type Address } from 'viem';
import type { ChainPublicClient } from '../clients';

const routerWithPoolErrors = [...ammRouterAbi, ...ammPoolAbi.filter((item) => item.type === 'error')] as const;

export interface ReadCorePoolForPairParameters {
  readonly router: Address;
  readonly tokenA: Address;
  readonly tokenB: Address;
}

/** The pool, or undefined when the router answers the zero address. */
export type ReadCorePoolForPairReturnType = Address | undefined;

/** The router's pool for a pair (`getPoolForPair`); a router that has none may also revert (see `isRevert`). */
export async function readCorePoolForPair(client: ChainPublicClient, params: ReadCorePoolForPairParameters): Promise<ReadCorePoolForPairReturnType> {
  const pool = await client.readContract({ address: params.router, abi: routerWithPoolErrors, functionName: 'getPoolForPair', args: [params.tokenA, params.tokenB] });
  return pool === zeroAddress ? undefined : pool;
}
