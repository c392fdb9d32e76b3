// Reads a core pool's state at a block: its tokens, reserves, fee rates and price oracle.
import { ammPoolAbi } from '@dex/abis';
import type { Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export interface ReadCorePoolStateParameters {
  readonly pool: Address;
  /** The block to read at; the latest when unset. */
  readonly blockNumber?: bigint;
}

export interface ReadCorePoolStateReturnType {
  readonly tokens: readonly [Address, Address];
  readonly reserves: readonly [bigint, bigint];
  /** The fee rate on each input side, 18 decimals (`getPoolFees`). */
  readonly fees: readonly [bigint, bigint];
  /** The price oracle the pool trades at. */
  readonly oracle: Address;
}

/** A core pool's tokens, reserves, fee rates and oracle, in one multicall; throws the first failure. */
export async function readCorePoolState(client: ChainPublicClient, params: ReadCorePoolStateParameters): Promise<ReadCorePoolStateReturnType> {
  const base = { address: params.pool, abi: ammPoolAbi } as const;
  const [tokens, reserves, fees, oracle] = await client.multicall({
    ...(params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber }),
    allowFailure: false,
    contracts: [
      { ...base, functionName: 'getTokens' },
      { ...base, functionName: 'getReserves' },
      { ...base, functionName: 'getPoolFees' },
      { ...base, functionName: 'oracle' },
    ],
  });
  return { tokens: [tokens[0], tokens[1]], reserves: [reserves[0], reserves[1]], fees: [fees[0], fees[1]], oracle };
}
