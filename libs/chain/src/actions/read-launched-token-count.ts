// How many tokens the launchpad has launched.
import { launchpadAbi } from '@dex/abis';
import type { Address } from 'viem';
import type { ChainPublicClient } from '../clients';

export interface ReadLaunchedTokenCountParameters {
  readonly launchpad: Address;
  /** The block to read at; the latest when unset. */
  readonly blockNumber?: bigint;
}

export type ReadLaunchedTokenCountReturnType = number;

/** The number of tokens the launchpad has launched (`getTokenCount`); tokens are indexed 0 to count - 1 in creation order. */
export async function readLaunchedTokenCount(client: ChainPublicClient, params: ReadLaunchedTokenCountParameters): Promise<ReadLaunchedTokenCountReturnType> {
  const count = await client.readContract({
    address: params.launchpad,
    abi: launchpadAbi,
    functionName: 'getTokenCount',
    ...(params.blockNumber === undefined ? {} : { blockNumber: params.blockNumber }),
  });
  return Number(count);
}
